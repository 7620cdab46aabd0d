// SPDX-License-Identifier: GPL-2.0
/*
 * rbreserve: run the tree's own reserve path (__rb_reserve_next(), steps
 * A-F, with the commit and discard paths) for every way up to --depth
 * contexts of --ops events each can nest on one CPU, and for every clock
 * that moves or stands still at each read, against the oracle of
 * rbr_oracle.c.
 *
 * Exit status: 0 the oracle holds, 1 counterexample, 2 usage error or the
 * model could not follow the code (a page switch).
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rbr_model.h"
#include "rbm_search.h"

static int bad_usage(const char *what, const char *arg)
{
	fprintf(stderr, "rbreserve: %s '%s' (see rbreserve --help)\n", what, arg);
	return 2;
}

static void usage(FILE *f)
{
	fprintf(f,
"usage: rbreserve [--variant NAME] [--depth D] [--ops K] [--no-discard] [--replay PICKS]\n"
"                 [--exact] [--verbose] [--no-hash] [--no-reduce] [--jobs N]\n"
"                 [--json FILE]\n"
"       rbreserve [--depth D] [--ops K] --estimate N\n"
"       rbreserve --list\n"
"\n"
"Run the tree's reserve path for D nested contexts (normal, softirq, irq, nmi),\n"
"each writing up to K events (reserve, then commit or discard), interrupted at\n"
"every access to a shared word, with a clock that moves or not at every read;\n"
"check the sub-buffer's time stamps and the tree's own audit.\n"
"\n"
"  -v, --variant NAME   tree (default) or a seeded fault (--list)\n"
"  -d, --depth D        nesting levels, 1 to %d\n"
"  -k, --ops K          events per context, 1 to %d\n"
"                       (neither given: depth 2 with 2 events, then depth 3\n"
"                       with 1, the bounds that finish in seconds; one given:\n"
"                       the other is 3 levels or 2 events)\n"
"  -D, --no-discard     every event is committed\n"
"  -x, --exact          only the bound given; by default every smaller bound is\n"
"                       explored first, so a counterexample found is a shortest\n"
"  -V, --verbose        a line per bound explored\n"
"  -r, --replay PICKS   re-run one execution (from a counterexample) with its trace\n"
"  -n, --no-hash        do not prune states already explored (slow; a cross-check)\n"
"  -R, --no-reduce      do not skip an interrupt after a load that it leaves as it\n"
"                       was, the same as one before the load (a cross-check)\n"
"  -e, --estimate N     estimate the bound's executions without pruning from N\n"
"                       random ones (Knuth's estimator; it tends to be low)\n"
"  -J, --jobs N         N processes, each exploring its share of every bound\n"
"                       (subtrees by their first choices; default 1)\n"
"  -j, --json FILE      the result as JSON too (- for standard output)\n"
"  -l, --list           the variants\n"
"\n"
"Exit status: 0 the oracle holds, 1 counterexample, 2 usage error or outside\n"
"the model.\n", RBR_MAX_DEPTH, RBR_MAX_OPS);
}

static void setup(const struct rbr_variant *var, int depth, int ops, bool discards)
{
	rbr.var = var;
	rbr.depth = depth;
	rbr.ops = ops;
	rbr.discards = discards;
}

static int replay(const char *picks, bool quiet_verdict)
{
	int n = strlen(picks), end;

	if (n > RBR_MAX_PATH)
		return bad_usage("--replay: too long", "");
	for (int i = 0; i < n; i++) {
		int p = rbm_search_char_pick(picks[i]);

		if (p < 0)
			return bad_usage("--replay: not a choice string", picks);
		rbr.path[i].pick = p;
		rbr.path[i].n = 36;
	}
	rbr.plen = n;
	rbr.hashing = false;
	rbr.trace = stdout;
	rbr.tstep = 0;
	printf("  step  context  event step access                                       | stamps after\n");
	end = rbr_run_once();
	rbr.trace = NULL;
	if (end == RBR_END_VIOLATION || end == RBR_END_UNMODELLED) {
		if (!quiet_verdict)
			printf("rbreserve: %s: %s\n", end == RBR_END_VIOLATION ? "COUNTEREXAMPLE" :
			       "OUTSIDE THE MODEL", rbr.why);
		return end == RBR_END_VIOLATION ? 1 : 2;
	}
	printf("rbreserve: this execution meets every rule\n");
	return 0;
}

static void json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(f, "\\u%04x", *s);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

static int write_json(const char *path, const char *verdict, const char *seq, double secs)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "w") : stdout;

	if (!f) {
		fprintf(stderr, "rbreserve: --json: cannot write '%s'\n", path);
		return 2;
	}
	fprintf(f, "{\"variant\": ");
	json_string(f, rbr.var->name);
	fprintf(f, ", \"depth\": %d, \"ops\": %d, \"discards\": %s, \"verdict\": \"%s\", "
		"\"executions\": %llu, \"states\": %llu, \"commuted\": %llu, \"reduced\": %s, "
		"\"seconds\": %.2f, \"why\": ",
		rbr.depth, rbr.ops, rbr.discards ? "true" : "false", verdict,
		rbr.executions, rbr.states, rbr.commuted, rbr.reducing ? "true" : "false", secs);
	json_string(f, rbr.why);
	fprintf(f, ", \"replay\": ");
	json_string(f, seq);
	fprintf(f, "}\n");
	if (f != stdout)
		fclose(f);
	return 0;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "variant",	required_argument, NULL, 'v' },
		{ "ops",	required_argument, NULL, 'k' },
		{ "depth",	required_argument, NULL, 'd' },
		{ "no-discard",	no_argument,	   NULL, 'D' },
		{ "replay",	required_argument, NULL, 'r' },
		{ "no-hash",	no_argument,	   NULL, 'n' },
		{ "no-reduce",	no_argument,	   NULL, 'R' },
		{ "exact",	no_argument,	   NULL, 'x' },
		{ "verbose",	no_argument,	   NULL, 'V' },
		{ "json",	required_argument, NULL, 'j' },
		{ "list",	no_argument,	   NULL, 'l' },
		{ "estimate",	required_argument, NULL, 'e' },
		{ "jobs",	required_argument, NULL, 'J' },
		{ "help",	no_argument,	   NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const struct rbr_variant *var = rbr_variants[0];
	const char *picks = NULL, *json = NULL;
	bool hashing = true, reducing = true, exact = false, verbose = false, discards = true;
	int ops = 0, depth = 0, c, end = RBR_END_OK, jobs = 1;
	bool bounds_given;
	char seq[RBR_MAX_PATH + 1] = "";
	double t0;
	char *endp;
	unsigned long probes = 0;

	/* a line at a time: a long run that is stopped keeps what it said */
	setvbuf(stdout, NULL, _IOLBF, 0);
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":v:k:d:Dr:nRxVj:le:J:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'v':
			var = NULL;
			for (unsigned int i = 0; i < rbr_nvariants; i++)
				if (!strcmp(optarg, rbr_variants[i]->name))
					var = rbr_variants[i];
			if (!var)
				return bad_usage("--variant: no such variant (see --list):", optarg);
			break;
		case 'k':
			ops = strtol(optarg, &endp, 10);
			if (*endp || endp == optarg || ops < 1 || ops > RBR_MAX_OPS)
				return bad_usage("--ops: not a number from 1 to 4:", optarg);
			break;
		case 'd':
			depth = strtol(optarg, &endp, 10);
			if (*endp || endp == optarg || depth < 1 || depth > RBR_MAX_DEPTH)
				return bad_usage("--depth: not a number from 1 to 4:", optarg);
			break;
		case 'D':
			discards = false;
			break;
		case 'r':
			picks = optarg;
			break;
		case 'n':
			hashing = false;
			break;
		case 'R':
			reducing = false;
			break;
		case 'x':
			exact = true;
			break;
		case 'V':
			verbose = true;
			break;
		case 'j':
			json = optarg;
			break;
		case 'e':
			probes = strtoul(optarg, &endp, 10);
			if (*endp || endp == optarg || !probes || probes > 100000000UL)
				return bad_usage("--estimate: not a number from 1 to 100000000:", optarg);
			break;
		case 'J':
			jobs = strtol(optarg, &endp, 10);
			if (*endp || endp == optarg || jobs < 1 || jobs > 64)
				return bad_usage("--jobs: not a number from 1 to 64:", optarg);
			break;
		case 'l':
			for (unsigned int i = 0; i < rbr_nvariants; i++)
				printf("%-28s %s\n", rbr_variants[i]->name, rbr_variants[i]->what);
			return 0;
		case 'h':
			usage(stdout);
			return 0;
		case ':':
			return bad_usage("option needs a value:", argv[optind - 1]);
		default:
			return bad_usage("unknown option", argv[optind - 1]);
		}
	}
	if (optind < argc)
		return bad_usage("unexpected argument", argv[optind]);
	/*
	 * The default bound: every fault and finding we know shows at depth 2
	 * with 2 events or at depth 3 with 1; depth 3 with 2 events takes
	 * more than half an hour here (docs/model.md).
	 */
	bounds_given = depth || ops;
	if (!depth)
		depth = 3;
	if (!ops)
		ops = 2;

	setup(var, depth, ops, discards);
	printf("rbreserve: variant %s: %s\n", var->name, var->what);
	printf("rbreserve: %d nested contexts (", depth);
	for (int l = 0; l < depth; l++)
		printf("%s%s", l ? " > " : "", rbr_level_names[l]);
	printf("), up to %d events each%s, %s; one CPU, one sub-buffer; the clock moves by %llu or not at each read\n",
	       ops, bounds_given || picks ? "" : " (1 at the deepest)",
	       discards ? "each committed or discarded" : "each committed", RBR_TICK);
	if (picks)
		return replay(picks, false);

	if (probes) {
		double max, mean;

		t0 = now();
		mean = rbr_estimate(probes, &max);
		printf("rbreserve: depth %d, %d events: about %.3g executions without pruning "
		       "(mean of %lu random executions; the largest weight %.3g), %.1f s\n",
		       depth, ops, mean, probes, max, now() - t0);
		return 0;
	}
	rbr.hashing = hashing;
	rbr.reducing = reducing;
	t0 = now();
	/*
	 * Smaller bounds first (unless --exact): they are cheap, and the
	 * first counterexample found is then one of the shortest.
	 */
	for (int d = exact ? depth : 1; d <= depth && !end; d++) {
		int max_ops = bounds_given || d < depth ? ops : 1;

		for (int k = exact ? max_ops : 1; k <= max_ops && !end; k++) {
			unsigned long long before = rbr.executions;

			setup(var, d, k, discards);
			end = rbr_explore_jobs(jobs);
			if (verbose || end || (d == depth && k == max_ops))
				printf("rbreserve: depth %d, %d events: %llu executions%s\n", d, k,
				       rbr.executions - before,
				       end == RBR_END_VIOLATION ? ": COUNTEREXAMPLE" :
				       end ? ": OUTSIDE THE MODEL" : ", every rule holds");
		}
	}
	printf("rbreserve: explored %llu executions (%llu complete, %llu cut at a state already "
	       "explored, %llu at an interrupt the same as an earlier one), %llu distinct states, "
	       "%.1f s\n", rbr.executions, rbr.complete, rbr.pruned - rbr.commuted, rbr.commuted,
	       rbr.states, now() - t0);
	if (end) {
		for (int i = 0; i < rbr.pos; i++)
			seq[i] = rbm_search_pick_char(rbr.path[i].pick);
		seq[rbr.pos] = '\0';
	}
	if (json && write_json(json, end == RBR_END_VIOLATION ? "counterexample" :
			       end ? "unmodelled" : "pass", seq, now() - t0))
		return 2;
	if (!end) {
		if (bounds_given)
			printf("rbreserve: every rule holds up to depth %d, %d events\n", depth, ops);
		else
			printf("rbreserve: every rule holds up to depth %d, %d events, and at depth %d, 1 event\n",
			       depth - 1, ops, depth);
		return 0;
	}
	printf("rbreserve: %s: %s\n", end == RBR_END_VIOLATION ? "COUNTEREXAMPLE" :
	       "OUTSIDE THE MODEL", rbr.why);
	printf("rbreserve: the interleaving, step by step:\n");
	replay(seq, true);
	printf("rbreserve: reproduce: rbreserve --variant %s --depth %d --ops %d%s --replay %s\n",
	       var->name, rbr.depth, rbr.ops, discards ? "" : " --no-discard", seq);
	return end == RBR_END_VIOLATION ? 1 : 2;
}
