/* report.h - how exploration results and traces are printed:
 * people's text, herd7's layout, and JSON. */
#ifndef WMX_REPORT_H
#define WMX_REPORT_H

#include <stdio.h>

#include "explore.h"

void report_text(FILE *out, const explore_result *res);
void report_herd(FILE *out, const explore_result *res);
void report_json(FILE *out, const explore_result *res);

/* One line per event of a trace ("  3  P1: MOV EAX,[x]   r x=0"). */
void report_trace(FILE *out, const wmx_machine *m, const wmx_event *events, int n);
/* The same, showing only both ends of a long trace. */
void report_trace_short(FILE *out, const wmx_machine *m, const wmx_event *events, int n);
/* Why a partial result stopped, in words ("timeout after 5 s"). */
const char *report_stop_text(const explore_result *res);

/* Writes `s` as a JSON string literal (with quotes). */
void json_string(FILE *out, const char *s);

/* The condition as herd prints it: "exists (0:EAX=0 /\ 1:EAX=0)". */
void report_condition(const wmx_program *p, char *buf, size_t n);
/* "t1 waits forever at f.c:4:45: pthread_mutex_lock(&b)": where and why a
 * thread of a blocked trace stopped. */
void report_wait(const wmx_program *p, const explore_wait *w, char *buf, size_t n);

#endif
