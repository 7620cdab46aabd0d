// SPDX-License-Identifier: GPL-2.0
/*
 * The rules over every event (rb_generic.c) in the three reports: a text
 * section, a "generic" JSON object, and KTAP tests after the rbstress ones.
 */
#include <inttypes.h>
#include <stdio.h>

#include "rb_report.h"

void rb_report_generic_text(FILE *f, const struct rb_input *in)
{
	const struct rb_generic *g = in->g;
	int header = 0;

	fprintf(f, "\nrbcheck: every event, of any format: %" PRIu64 " (by common_flags:", g->events);
	for (int c = 0; c < RB_CTX_MAX; c++)
		fprintf(f, "%s %s %" PRIu64, c ? "," : "", rb_generic_ctx_name(c), g->ctx_events[c]);
	fprintf(f, "), clock %s\n", g->clock[0] ? g->clock : "not known");
	/* the rbstress summary, when there is one, has said it already */
	if (!in->v->events)
		fprintf(f, "rbcheck: lost events reported by the buffer: %" PRIu64 "%s\n",
			in->v->lost_events,
			in->v->lost_unknown ? " (and some reports without a count)" : "");
	for (int o = 0; o < RB_CTX_MAX; o++) {
		for (int i = o + 1; i < RB_CTX_MAX; i++) {
			const struct rb_gen_pair *p = &g->pairs[i][o];
			char pair[40];

			if (!p->count)
				continue;
			if (!header++)
				fprintf(f, "\n  %-30s %10s %16s\n", "higher right after lower",
					"count", "delta 0");
			snprintf(pair, sizeof(pair), "%s after %s", rb_generic_ctx_name(i),
				 rb_generic_ctx_name(o));
			fprintf(f, "  %-30s %10" PRIu64 " %9" PRIu64 " (%3.0f%%)\n", pair, p->count,
				p->zero, 100.0 * p->zero / p->count);
		}
	}
	rb_report_rules_header(f);
	for (int r = 0; r < RB_GEN_MAX; r++) {
		enum rb_verdict vd = rb_generic_rule_verdict(g, r);

		rb_report_rule_line(f, rb_gen_rule_names[r], vd, &g->rules[r]);
		if (r == RB_GEN_DISTINCT && vd != RB_SKIP && g->shared_with_interrupter)
			fprintf(f, "  (%" PRIu64 " events interrupted before their reservation "
				"took their interrupter's stamp)", g->shared_with_interrupter);
		fputc('\n', f);
	}
	for (int r = 0; r < RB_GEN_MAX; r++)
		rb_report_rule_examples(f, rb_gen_rule_names[r], &g->rules[r]);
}

/* ,"generic":{...} inside the report's object */
void rb_report_generic_json(FILE *f, const struct rb_input *in)
{
	const struct rb_generic *g = in->g;
	int n = 0;

	fprintf(f, ",\"generic\":{\"verdict\":\"%s\",\"events\":%" PRIu64 ",\"clock\":",
		rb_verdict_names[rb_generic_verdict(g)], g->events);
	if (g->clock[0])
		rb_json_str(f, g->clock);
	else
		fprintf(f, "null");
	fprintf(f, ",\"counter_clock\":%s,\"rbstress_rules_apply\":%s"
		",\"shared_with_interrupter\":%" PRIu64 ",\"contexts\":{",
		g->counter_clock ? "true" : "false", in->v->events ? "true" : "false",
		g->shared_with_interrupter);
	for (int c = 0; c < RB_CTX_MAX; c++)
		fprintf(f, "%s\"%s\":%" PRIu64, c ? "," : "", rb_generic_ctx_name(c), g->ctx_events[c]);
	fprintf(f, "},\"pairs\":[");
	for (int o = 0; o < RB_CTX_MAX; o++)
		for (int i = o + 1; i < RB_CTX_MAX; i++) {
			const struct rb_gen_pair *p = &g->pairs[i][o];

			if (!p->count)
				continue;
			fprintf(f, "%s{\"inner\":\"%s\",\"outer\":\"%s\",\"count\":%" PRIu64
				",\"delta_zero\":%" PRIu64 "}", n++ ? "," : "", rb_generic_ctx_name(i),
				rb_generic_ctx_name(o), p->count, p->zero);
		}
	fprintf(f, "],\"rules\":[");
	for (int r = 0; r < RB_GEN_MAX; r++)
		rb_json_rule(f, !r, rb_gen_rule_names[r], rb_generic_rule_verdict(g, r), &g->rules[r]);
	fprintf(f, "]}");
}

/* The rules' KTAP lines, numbered after the rbstress rules' @first - 1. */
void rb_report_generic_ktap(FILE *f, const struct rb_input *in, int first)
{
	const struct rb_generic *g = in->g;

	for (int r = 0; r < RB_GEN_MAX; r++) {
		const struct rb_rule_result *res = &g->rules[r];
		enum rb_verdict vd = rb_generic_rule_verdict(g, r);

		for (int i = 0; i < res->nr_examples; i++)
			fprintf(f, "# %s: %s\n", rb_gen_rule_names[r], res->examples[i]);
		if (vd == RB_SKIP)
			fprintf(f, "ok %d %s # SKIP %s\n", first + r, rb_gen_rule_names[r],
				res->skip_reason);
		else
			fprintf(f, "%sok %d %s # checked=%" PRIu64 " violations=%" PRIu64 "\n",
				vd == RB_FAIL ? "not " : "", first + r, rb_gen_rule_names[r],
				res->checked, res->violations);
	}
}
