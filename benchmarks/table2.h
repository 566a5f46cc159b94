/* The inference rules of Fang et al. Sections 4.2 and 4.3: from warp-level
 * latencies to the paper's Table 2 (broadcast / parallel support, impact of
 * aligned and consecutive access). The thresholds live in table2.c, nowhere
 * else. Plain C; works on any profile, measured or synthetic. */
#ifndef WARPMEM_TABLE2_H
#define WARPMEM_TABLE2_H

#include <stdio.h>

#include "profile.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The thresholds, exposed so tests and reports can quote them. */
extern const double table2_trend_ratio;     /* latency ratio that counts as a trend */
extern const double table2_equal_tolerance; /* warp vs thread latency "equal" */
extern const double table2_no_impact_max;   /* constraint ratio below: no impact */
extern const double table2_small_impact_max;/* below: small impact; above: large */

/* Fills p->table2 from p's measurements. A row whose inputs are missing is
 * left with known = false. */
void table2_infer(profile *p);

/* Prints the table of `a` and, when b is not NULL, of b beside it. */
void table2_print(FILE *out, const profile *a, const profile *b);

/* "support" / "not support" as the paper writes it. */
const char *table2_support_word(bool supported);

#ifdef __cplusplus
}
#endif

#endif
