// SPDX-License-Identifier: GPL-2.0
/*
 * KTAP v1 (Documentation/dev-tools/ktap.rst): one test per rule, with a
 * subtest per CPU, so that kernel test tooling can read the verdicts.
 */
#include <inttypes.h>
#include <stdio.h>

#include "rb_report.h"

static void ktap_example_lines(FILE *f, const char *indent, const char *example)
{
	fprintf(f, "%s# ", indent);
	for (const char *c = example; *c; c++) {
		fputc(*c, f);
		if (*c == '\n' && c[1])
			fprintf(f, "%s#", indent);
	}
	fputc('\n', f);
}

void rb_report_ktap(FILE *f, const struct rb_input *in, const char *source)
{
	const struct rb_verifier *v = in->v;

	fprintf(f, "KTAP version 1\n");
	fprintf(f, "# rbcheck: %s: %" PRIu64 " rbstress events on %d CPU(s)\n",
		source, v->events, v->nr_cpus_seen);
	fprintf(f, "1..%d\n", RB_RULE_MAX + (in->g ? RB_GEN_MAX : 0));
	for (int r = 0; r < RB_RULE_MAX; r++) {
		const struct rb_rule_result *res = &v->rules[r];
		enum rb_verdict vd = rb_rule_verdict(v, r);
		int n = 0;

		fprintf(f, "  KTAP version 1\n  # Subtest: %s\n  1..%d\n",
			rb_rule_names[r], v->nr_cpus_seen);
		for (int cpu = 0; cpu < RB_MAX_CPUS; cpu++) {
			uint64_t bad = v->cpu_violations[cpu][r];
			uint64_t chk = v->cpu_checked[cpu][r];

			if (!v->cpus[cpu])
				continue;
			if (bad)
				fprintf(f, "  not ok %d cpu%d # %" PRIu64 " of %" PRIu64 " checks failed\n",
					++n, cpu, bad, chk);
			else if (!chk)
				fprintf(f, "  ok %d cpu%d # SKIP nothing to check on this CPU\n", ++n, cpu);
			else
				fprintf(f, "  ok %d cpu%d # checked=%" PRIu64 "\n", ++n, cpu, chk);
		}
		for (int i = 0; i < res->nr_examples; i++)
			ktap_example_lines(f, "  ", res->examples[i]);
		if (vd == RB_SKIP)
			fprintf(f, "ok %d %s # SKIP %s\n", r + 1, rb_rule_names[r], res->skip_reason);
		else
			fprintf(f, "%sok %d %s # checked=%" PRIu64 " violations=%" PRIu64 "\n",
				vd == RB_FAIL ? "not " : "", r + 1, rb_rule_names[r],
				res->checked, res->violations);
	}
	if (in->g)
		rb_report_generic_ktap(f, in, RB_RULE_MAX + 1);
}
