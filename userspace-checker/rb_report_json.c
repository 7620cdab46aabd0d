// SPDX-License-Identifier: GPL-2.0
/*
 * One JSON object with everything the text summary has, plus the delta
 * histograms, for scripts and plots.  Written by hand: it is small, and
 * the checker should not need a JSON library.
 */
#include <inttypes.h>
#include <stdio.h>

#include "rb_report.h"

void rb_json_rule(FILE *f, bool first, const char *name, enum rb_verdict vd,
		  const struct rb_rule_result *res)
{
	fprintf(f, "%s{\"rule\":\"%s\",\"verdict\":\"%s\",\"checked\":%" PRIu64
		",\"violations\":%" PRIu64 ",\"skip_reason\":", first ? "" : ",", name,
		rb_verdict_names[vd], res->checked, res->violations);
	if (res->skipped)
		rb_json_str(f, res->skip_reason);
	else
		fputs("null", f);
	fprintf(f, ",\"examples\":[");
	for (int i = 0; i < res->nr_examples; i++) {
		if (i)
			fputc(',', f);
		rb_json_str(f, res->examples[i]);
	}
	fprintf(f, "]}");
}

void rb_json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static void json_contexts(FILE *f, const struct rb_verifier *v)
{
	const char *sep = "";

	fprintf(f, "\"cpus\":[");
	for (int cpu = 0; cpu < RB_MAX_CPUS; cpu++) {
		const char *csep = "";

		if (!v->cpus[cpu])
			continue;
		fprintf(f, "%s{\"cpu\":%d,\"contexts\":[", sep, cpu);
		for (int c = 0; c < RB_CTX_MAX; c++) {
			const struct rb_ctx_stats *s = &v->cpu_ctx[cpu][c];

			fprintf(f, "%s{\"context\":\"%s\",\"events\":%" PRIu64 ",\"nested\":%" PRIu64
				",\"before_c\":%" PRIu64 ",\"before_c_delta_0\":%" PRIu64
				",\"lost\":%" PRIu64 ",\"max_depth\":%u}", csep, rb_ctx_name(c),
				s->events, s->nested, s->before_c, s->before_c_zero, s->lost,
				s->events ? s->max_depth + 1 : 0);
			csep = ",";
		}
		fprintf(f, "]}");
		sep = ",";
	}
	fprintf(f, "]");
}

static void json_pairs(FILE *f, const struct rb_verifier *v)
{
	const char *sep = "";

	fprintf(f, "\"pairs\":[");
	for (int o = 0; o < RB_CTX_MAX; o++) {
		for (int i = 0; i < RB_CTX_MAX; i++) {
			const struct rb_pair_stats *p = &v->pairs[o][i];
			const char *hsep = "";

			if (!p->count)
				continue;
			fprintf(f, "%s{\"outer\":\"%s\",\"inner\":\"%s\",\"count\":%" PRIu64
				",\"min_delta_ns\":%" PRIu64 ",\"median_delta_ns\":%" PRIu64
				",\"mean_delta_ns\":%" PRIu64 ",\"max_delta_ns\":%" PRIu64
				",\"histogram\":[", sep, rb_ctx_name(o), rb_ctx_name(i), p->count,
				p->min_delta, rb_pair_median(p), p->sum_delta / p->count, p->max_delta);
			for (unsigned int b = 0; b < RB_HIST_BUCKETS; b++) {
				if (!p->hist[b])
					continue;
				fprintf(f, "%s{\"le_ns\":%" PRIu64 ",\"count\":%" PRIu64 "}",
					hsep, rb_hist_upper(b), p->hist[b]);
				hsep = ",";
			}
			fprintf(f, "]}");
			sep = ",";
		}
	}
	fprintf(f, "]");
}

static void json_counters(FILE *f, const struct rb_verifier *v)
{
	const struct rb_path_counters *k = v->counters;

	if (k && k->have_left) {
		fprintf(f, "\"entries_left\":[");
		for (int cpu = 0; cpu < k->nr_cpus; cpu++)
			fprintf(f, "%s%" PRIu64, cpu ? "," : "", k->entries_left[cpu]);
		fprintf(f, "],");
	} else {
		fprintf(f, "\"entries_left\":null,");
	}
	if (!k || !k->have) {
		fprintf(f, "\"path_counters\":null");
		return;
	}
	fprintf(f, "\"path_counters\":[");
	for (int cpu = 0; cpu < k->nr_cpus; cpu++) {
		fprintf(f, "%s{\"cpu\":%d", cpu ? "," : "", cpu);
		for (int p = 0; p < RB_TS_PATH_MAX; p++) {
			if (!(k->have & (1u << p)))
				continue;
			fputc(',', f);
			rb_json_str(f, rb_ts_path_names[p]);
			fprintf(f, ":%" PRIu64, k->v[cpu][p]);
		}
		fputc('}', f);
	}
	fprintf(f, "]");
}

static void json_rules(FILE *f, const struct rb_verifier *v)
{
	fprintf(f, "\"rules\":[");
	for (int r = 0; r < RB_RULE_MAX; r++)
		rb_json_rule(f, !r, rb_rule_names[r], rb_rule_verdict(v, r), &v->rules[r]);
	fprintf(f, "]");
}

void rb_report_json(FILE *f, const struct rb_input *in, const char *source)
{
	const struct rb_verifier *v = in->v;

	fprintf(f, "{\"source\":");
	rb_json_str(f, source);
	fprintf(f, ",\"verdict\":\"%s\",\"settings\":{\"clock_bound_ns\":%" PRIu64
		",\"require_nested\":%s},\"clock\":\"%s\",\"events\":%" PRIu64
		",\"other_events\":%" PRIu64 ",\"lost_events\":%" PRIu64
		",\"lost_reports_without_count\":%" PRIu64 ",\"max_depth\":%u"
		",\"four_deep\":%" PRIu64 ",\"max_clock_gap_ns\":%" PRIu64
		",\"clock_window_checked\":%" PRIu64 ",",
		rb_verdict_names[rb_input_verdict(in)], v->set.clock_bound_ns,
		v->set.require_nested ? "true" : "false", rb_clock_name(v->clock_id),
		v->events, in->other, v->lost_events, v->lost_unknown,
		v->events ? v->max_depth + 1 : 0, v->four_deep, v->max_clock_gap,
		v->pre_clock_checked);
	if (in->note[0]) {
		fprintf(f, "\"input_note\":");
		rb_json_str(f, in->note);
		fputc(',', f);
	}
	fprintf(f, "\"faults\":{\"buffer_resets\":%" PRIu64 ",\"reset_wiped\":%" PRIu64
		",\"module_reloads\":%" PRIu64 ",\"filtered\":%" PRIu64
		",\"stamped_at_commit\":%" PRIu64 ",\"own_clock_other\":%" PRIu64 "},",
		v->resets, v->reset_wiped, v->reloads, v->filtered, v->stamped_at_commit,
		v->own_clock_other);
	fprintf(f, "\"records\":{");
	for (int r = 0; r < RB_REC_MAX; r++)
		fprintf(f, "%s\"%s\":%" PRIu64, r ? "," : "", rb_record_names[r], v->records[r]);
	fprintf(f, ",\"subbuf_size\":%d", v->subbuf_size);
	fprintf(f, "},\"fast_path\":{\"free_events\":%" PRIu64 ",\"left_fast_path\":%" PRIu64 "},",
		v->free_events, v->free_slow);
	json_contexts(f, v);
	fputc(',', f);
	json_pairs(f, v);
	fputc(',', f);
	json_counters(f, v);
	fputc(',', f);
	json_rules(f, v);
	if (in->g)
		rb_report_generic_json(f, in);
	fprintf(f, "}\n");
}
