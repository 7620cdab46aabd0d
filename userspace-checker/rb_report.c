// SPDX-License-Identifier: GPL-2.0
/*
 * The human summary.  Per CPU and context the counts, then nested pairs
 * with their deltas, then one line per rule and the first violations of
 * each failing rule in full.
 */
#include <inttypes.h>
#include <stdio.h>

#include "rb_report.h"

const char *const rb_verdict_names[] = {
	[RB_PASS] = "PASS",
	[RB_FAIL] = "FAIL",
	[RB_SKIP] = "SKIP",
};

static void report_contexts(FILE *f, const struct rb_verifier *v)
{
	fprintf(f, "  %-5s %-8s %12s %10s %18s %12s %6s\n", "cpu", "context",
		"events", "nested", "before C (delta 0)", "lost", "depth");
	for (int cpu = 0; cpu < RB_MAX_CPUS; cpu++) {
		if (!v->cpus[cpu])
			continue;
		for (int c = 0; c < RB_CTX_MAX; c++) {
			const struct rb_ctx_stats *s = &v->cpu_ctx[cpu][c];
			char bc[40];

			if (!s->events) {
				/* A context that never wrote tested nothing. */
				if (c == RB_CTX_NMI)
					fprintf(f, "  %-5d %-8s %12s  SKIP: no NMI event was recorded\n",
						cpu, rb_ctx_name(c), "0");
				continue;
			}
			snprintf(bc, sizeof(bc), "%" PRIu64 " (%" PRIu64 ")",
				 s->before_c, s->before_c_zero);
			fprintf(f, "  %-5d %-8s %12" PRIu64 " %10" PRIu64 " %18s %12" PRIu64
				" %6u\n", cpu, rb_ctx_name(c), s->events, s->nested, bc,
				s->lost, s->max_depth + 1);
		}
	}
}

static void report_pairs(FILE *f, const struct rb_verifier *v)
{
	int header = 0;

	for (int o = 0; o < RB_CTX_MAX; o++) {
		for (int i = 0; i < RB_CTX_MAX; i++) {
			const struct rb_pair_stats *p = &v->pairs[o][i];
			char pair[32];

			if (!p->count)
				continue;
			if (!header++)
				fprintf(f, "\n  %-18s %10s %13s %13s %13s %13s\n", "nested (inner in outer)",
					"count", "min delta ns", "median ns", "mean ns", "max ns");
			snprintf(pair, sizeof(pair), "%s in %s", rb_ctx_name(i), rb_ctx_name(o));
			fprintf(f, "  %-23s %10" PRIu64 " %13" PRIu64 " %13" PRIu64 " %13" PRIu64
				" %13" PRIu64 "\n", pair, p->count, p->min_delta, rb_pair_median(p),
				p->sum_delta / p->count, p->max_delta);
		}
	}
}

/* What the verified sub-buffers show of the same paths. */
static void report_records(FILE *f, const struct rb_verifier *v)
{
	/* Only a reader that walks sub-buffers counts them (not libtracecmd's). */
	if (!v->records[RB_REC_SUBBUF])
		return;
	fprintf(f, "  in the verified sub-buffers: %" PRIu64 " sub-buffers of %d bytes, %" PRIu64
		" time extends, %" PRIu64 " full time stamps (absolute + before_stamp!=write_stamp"
		" + read_failed), %" PRIu64 " discarded events left as padding, %" PRIu64
		" end paddings (rb_reset_tail()'s, or a discarded event's)\n",
		v->records[RB_REC_SUBBUF], v->subbuf_size, v->records[RB_REC_EXTEND],
		v->records[RB_REC_ABSOLUTE], v->records[RB_REC_DISCARDED],
		v->records[RB_REC_END_PADDING]);
}

/*
 * What the kernel still held after the last drain with recording off:
 * events no reader got and no overrun counted (open finding b).
 */
static void report_left(FILE *f, const struct rb_verifier *v)
{
	const struct rb_path_counters *k = v->counters;

	if (!k || !k->have_left)
		return;
	for (int cpu = 0; cpu < k->nr_cpus; cpu++)
		if (k->entries_left[cpu])
			fprintf(f, "  NOTE: cpu%d: after the last drain, with recording off, the kernel "
				"still holds %" PRIu64 " event(s) that no reader got and no overrun "
				"counted: lost without a loss report\n", cpu, k->entries_left[cpu]);
}

/*
 * Which of __rb_reserve_next()'s time stamp paths the run took, from the
 * kernel's counters: the point is to see that the slow paths were hit.
 */
static void report_coverage(FILE *f, const struct rb_verifier *v)
{
	const struct rb_path_counters *k = v->counters;
	uint64_t tot[RB_TS_PATH_MAX] = { 0 }, slow = 0, events = 0, a_to_c = 0;

	if (!k || !k->have) {
		fprintf(f, "\n  time stamp paths: unknown (no path counters in this kernel)\n");
		report_records(f, v);
		return;
	}
	fprintf(f, "\n  %-28s", "time stamp path (kernel)");
	for (int cpu = 0; cpu < k->nr_cpus; cpu++)
		fprintf(f, " %9s%-3d", "cpu", cpu);
	fprintf(f, " %12s\n", "total");
	for (int p = 0; p < RB_TS_PATH_MAX; p++) {
		if (!(k->have & (1u << p)))
			continue;
		fprintf(f, "  %-28s", rb_ts_path_names[p]);
		for (int cpu = 0; cpu < k->nr_cpus; cpu++) {
			fprintf(f, " %12" PRIu64, k->v[cpu][p]);
			tot[p] += k->v[cpu][p];
		}
		fprintf(f, " %12" PRIu64 "\n", tot[p]);
	}
	for (int p = 0; p < RB_TS_PATH_MAX; p++)
		if (p != RB_TS_DISCARD_REMOVED && p != RB_TS_DISCARD_PADDING)
			slow += tot[p];
	events = v->events;
	fprintf(f, "  %-28s %*s %12" PRIu64 "\n", "fast path (events - above)",
		13 * k->nr_cpus - 1, "", events > slow ? events - slow : 0);
	if (v->free_events)
		fprintf(f, "  fast path kept: %.2f%% of the %" PRIu64 " events that interrupted nobody's "
			"time update and were not interrupted in theirs (at most %" PRIu64 " left it)\n",
			100.0 * (double)(v->free_events - (v->free_slow < v->free_events ?
							   v->free_slow : v->free_events)) /
			(double)v->free_events, v->free_events, v->free_slow);
	report_records(f, v);
	for (int p = 0; p < RB_TS_PATH_MAX; p++)
		if (RB_TS_A_TO_C_PATHS & (1u << p))
			a_to_c += tot[p];
	if (!a_to_c && !tot[RB_TS_BEFORE_AFTER] && !tot[RB_TS_READ_FAILED])
		fprintf(f, "  NOTE: no slow path of the nested-event logic was hit: "
			"this run tested only the fast path\n");
	else if (!a_to_c)
		fprintf(f, "  NOTE: the A-C paths (interrupted between A and C) were never hit\n");
	/*
	 * Only the 32-bit rb_time_t can fail a read: an interrupt between the
	 * cnt updates of rb_time_set().  Say plainly whether that path ran.
	 */
	if (k->rb_time_32 && !tot[RB_TS_READ_FAILED])
		fprintf(f, "  NOTE: rb_time_read() never failed (read_failed 0): the 32-bit "
			"read-failure path was not hit in this run\n");
	else if (k->rb_time_32)
		fprintf(f, "  the 32-bit read-failure path (rb_time_read() returning false) "
			"was hit %" PRIu64 " times\n", tot[RB_TS_READ_FAILED]);
}

void rb_report_rules_header(FILE *f)
{
	fprintf(f, "\n  %-13s %-7s %12s %11s\n", "rule", "verdict", "checked", "violations");
}

void rb_report_rule_line(FILE *f, const char *name, enum rb_verdict vd,
			 const struct rb_rule_result *res)
{
	fprintf(f, "  %-13s %-7s %12" PRIu64 " %11" PRIu64, name, rb_verdict_names[vd],
		res->checked, res->violations);
	if (vd == RB_SKIP)
		fprintf(f, "  (%s)", res->skip_reason);
}

void rb_report_rule_examples(FILE *f, const char *name, const struct rb_rule_result *res)
{
	if (!res->violations)
		return;
	fprintf(f, "\n  %s: %" PRIu64 " violation(s), the first %d:\n", name, res->violations,
		res->nr_examples);
	for (int i = 0; i < res->nr_examples; i++)
		fprintf(f, "    %s\n", res->examples[i]);
}

static void report_rules(FILE *f, const struct rb_verifier *v)
{
	rb_report_rules_header(f);
	for (int r = 0; r < RB_RULE_MAX; r++) {
		const struct rb_rule_result *res = &v->rules[r];
		enum rb_verdict vd = rb_rule_verdict(v, r);

		rb_report_rule_line(f, rb_rule_names[r], vd, res);
		if (r == RB_RULE_OWN_CLOCK && vd != RB_SKIP && v->pre_clock_checked)
			fprintf(f, "  (%" PRIu64 " in [pre_clock, clock]; largest clock - stamp %"
				PRIu64 " ns)", v->pre_clock_checked, v->max_clock_gap);
		else if (r == RB_RULE_OWN_CLOCK && vd != RB_SKIP)
			fprintf(f, "  (largest gap %" PRIu64 " ns, bound %" PRIu64 ")",
				v->max_clock_gap, v->set.clock_bound_ns);
		if (r == RB_RULE_NESTED_DELTA && res->skipped_flat)
			fprintf(f, "  (%" PRIu64 " equal stamps with a clock that did not move)",
				res->skipped_flat);
		fputc('\n', f);
	}
	for (int r = 0; r < RB_RULE_MAX; r++)
		rb_report_rule_examples(f, rb_rule_names[r], &v->rules[r]);
}

void rb_report_text(FILE *f, const struct rb_input *in, const char *source)
{
	const struct rb_verifier *v = in->v;
	struct rb_ctx_stats tot[RB_CTX_MAX];
	uint64_t nested = 0;

	if (!v->events && in->g) {
		/* a capture of other events: the generic rules alone */
		fprintf(f, "rbcheck: %s: no rbstress events: the rbstress rules (", source);
		for (int r = 0; r < RB_RULE_MAX; r++)
			fprintf(f, "%s%s", r ? ", " : "", rb_rule_names[r]);
		fprintf(f, ") do not apply\n");
		if (in->note[0])
			fprintf(f, "rbcheck: NOTE: %s\n", in->note);
		rb_report_generic_text(f, in);
		fprintf(f, "\nrbcheck: verdict %s\n", rb_verdict_names[rb_input_verdict(in)]);
		return;
	}
	rb_verify_totals(v, tot);
	for (int c = 0; c < RB_CTX_MAX; c++)
		nested += tot[c].nested;

	fprintf(f, "rbcheck: %s: %" PRIu64 " rbstress events on %d CPU(s), %" PRIu64
		" nested, deepest nesting %u, clock %s", source, v->events,
		v->nr_cpus_seen, nested, v->max_depth + 1, rb_clock_name(v->clock_id));
	/* an older module's format names no clock: say what the file does */
	if (!rb_clock_named(v->clock_id))
		fprintf(f, " (the capture's module names no clocks%s%s%s)",
			in->g && in->g->clock[0] ? "; trace clock " : "",
			in->g && in->g->clock[0] ? in->g->clock : "",
			in->g && in->g->clock[0] ? " by the file" : "");
	fputc('\n', f);
	fprintf(f, "rbcheck: four-deep stacks (%s in %s in %s in %s): %" PRIu64 "\n",
		rb_ctx_name(RB_CTX_NMI), rb_ctx_name(RB_CTX_IRQ), rb_ctx_name(RB_CTX_SOFTIRQ),
		rb_ctx_name(RB_CTX_NORMAL), v->four_deep);
	if (in->other)
		fprintf(f, "rbcheck: %" PRIu64 " events of other systems skipped\n", in->other);
	if (in->note[0])
		fprintf(f, "rbcheck: NOTE: %s\n", in->note);
	fprintf(f, "rbcheck: lost events reported by the buffer: %" PRIu64 "%s\n",
		v->lost_events, v->lost_unknown ? " (and some reports without a count)" : "");
	if (v->resets || v->reloads || v->filtered || v->stamped_at_commit)
		fprintf(f, "rbcheck: under faults: %" PRIu64 " buffer reset(s) (%" PRIu64
			" events wiped), %" PRIu64 " module reload(s) seen, %" PRIu64
			" events filtered out (%" PRIu64 " stamped at commit)\n", v->resets,
			v->reset_wiped, v->reloads, v->filtered, v->stamped_at_commit);
	if (v->own_clock_other)
		fprintf(f, "rbcheck: own-clock: %" PRIu64 " events not compared: the module read "
			"another clock than the buffer's\n", v->own_clock_other);
	fputc('\n', f);
	report_contexts(f, v);
	report_pairs(f, v);
	report_coverage(f, v);
	report_left(f, v);
	report_rules(f, v);
	if (in->g)
		rb_report_generic_text(f, in);
	fprintf(f, "\nrbcheck: verdict %s\n", rb_verdict_names[rb_input_verdict(in)]);
}
