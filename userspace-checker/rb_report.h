/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _RB_REPORT_H
#define _RB_REPORT_H

#include <stdio.h>

#include "rb_input.h"

extern const char *const rb_verdict_names[];

/* The human summary: short enough to paste into a mailing-list reply. */
void rb_report_text(FILE *f, const struct rb_input *in, const char *source);

/* KTAP v1: one test per rule, a subtest per CPU (rb_report_ktap.c). */
void rb_report_ktap(FILE *f, const struct rb_input *in, const char *source);

/* One JSON object: settings, counts, histograms, verdicts (rb_report_json.c). */
void rb_report_json(FILE *f, const struct rb_input *in, const char *source);

/* The rules over every event, when the input has them (rb_report_generic.c). */
void rb_report_generic_text(FILE *f, const struct rb_input *in);
void rb_report_generic_json(FILE *f, const struct rb_input *in);
void rb_report_generic_ktap(FILE *f, const struct rb_input *in, int first);

#endif /* _RB_REPORT_H */
