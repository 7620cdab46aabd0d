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

/* A rule's line in the text summary (no newline), and its examples. */
void rb_report_rules_header(FILE *f);
void rb_report_rule_line(FILE *f, const char *name, enum rb_verdict vd,
			 const struct rb_rule_result *res);
void rb_report_rule_examples(FILE *f, const char *name, const struct rb_rule_result *res);
/* A JSON string, escaped, and a rule's object (rb_report_json.c). */
void rb_json_str(FILE *f, const char *s);
void rb_json_rule(FILE *f, bool first, const char *name, enum rb_verdict vd,
		  const struct rb_rule_result *res);

/* The rules over every event, when the input has them (rb_report_generic.c). */
void rb_report_generic_text(FILE *f, const struct rb_input *in);
void rb_report_generic_json(FILE *f, const struct rb_input *in);
void rb_report_generic_ktap(FILE *f, const struct rb_input *in, int first);

#endif /* _RB_REPORT_H */
