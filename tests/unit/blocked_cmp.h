/* blocked_cmp.h - compares where two results' blocked traces stop
 * (explore_result.blocked_at), for the explorers' differential tests. */
#ifndef WMX_TEST_BLOCKED_CMP_H
#define WMX_TEST_BLOCKED_CMP_H

#include "result.h"

#include <stdbool.h>
#include <string.h>

/* Whether a and b list the same stopping sets; with counts, the same
 * number of traces in each; with witness, the same shortest trace. */
static inline bool blocked_at_same(const explore_result *a, const explore_result *b, bool counts,
                                   bool witness)
{
    if (a->nblocked_at != b->nblocked_at)
        return false;
    for (int i = 0; i < a->nblocked_at; i++) {
        const explore_blocked *x = &a->blocked_at[i], *y = &b->blocked_at[i];
        if (x->nwaits != y->nwaits || memcmp(x->waits, y->waits, (size_t)x->nwaits * sizeof *x->waits))
            return false;
        if (counts && x->count != y->count)
            return false;
        if (witness && (x->len != y->len ||
                        memcmp(x->steps, y->steps, (size_t)x->len * sizeof *x->steps)))
            return false;
    }
    return true;
}

#endif
