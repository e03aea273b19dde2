# bench/lib.sh - helpers shared by the bench scripts (sourced, not run).
# measure OUTFILE CMD...: runs CMD, stores its stdout in OUTFILE and sets
# SECS (wall time) and KB (peak resident memory) from GNU time.
measure() {
  out=$1; shift
  /usr/bin/time -f '%e %M' -o "$out.time" "$@" > "$out" 2>"$out.err"
  status=$?
  # GNU time prints "Command exited with non-zero status N" first on failure
  SECS=$(tail -n 1 "$out.time" | cut -d' ' -f1)
  KB=$(tail -n 1 "$out.time" | cut -d' ' -f2)
  return $status
}
# json_field FILE NAME: the number after "NAME": in a one-line JSON object
json_field() {
  sed -n "s/.*\"$2\": \([0-9.]*\).*/\1/p" "$1"
}
