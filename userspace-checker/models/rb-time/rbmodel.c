// SPDX-License-Identifier: GPL-2.0
/*
 * rbmodel: check the rb_time_t requirements exhaustively, for every
 * program of at most --ops operations per context and every way up to
 * --depth contexts can nest, on the tree's code or the article's.
 *
 * Exit status: 0 all requirements hold, 1 counterexample, 2 usage error.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rbm_model.h"
#include "rbm_search.h"

#ifndef RBM_ARGS_ONLY
static const struct rbm_variant *const variants[] = {
	&rbm_variant_tree,
	&rbm_variant_article,
	&rbm_variant_read_nocnt,
	&rbm_variant_set_noretry,
	&rbm_variant_cmpxchg_nocnt,
};
#define NVARIANTS (sizeof(variants) / sizeof(variants[0]))
#endif

static int bad_usage(const char *what, const char *arg)
{
	fprintf(stderr, "rbmodel: %s '%s' (see rbmodel --help)\n", what, arg);
	return 2;
}

#ifndef RBM_ARGS_ONLY
static void usage(FILE *f)
{
	fprintf(f,
"usage: rbmodel [--variant NAME] [--ops K] [--depth D] [--value V2] [--replay PICKS] [--no-hash]\n"
"               [--json FILE]\n"
"       rbmodel --list\n"
"\n"
"Run every program of K operations (read, set, cmpxchg on the values V1, V2)\n"
"per context, for D nested contexts (normal, softirq, irq, nmi, transition),\n"
"with every interrupt point, against the requirements of the rb_time_t.\n"
"\n"
"  -v, --variant NAME   tree (default), article, or a seeded fault (--list)\n"
"  -k, --ops K          operations per context, 1 to %d (default 4)\n"
"  -d, --depth D        nesting levels, 1 to %d (default 4)\n"
"  -w, --value V2       the second value the programs set (hex or decimal; default\n"
"                       0x80000002, a carry across top and bottom): e.g.\n"
"                       0xffffffffffffffff, RB_TIME_NONE, which needs every bit\n"
"  -x, --exact          only the bound given; by default every smaller bound is\n"
"                       explored first, so a counterexample found is a shortest\n"
"  -V, --verbose        a line per bound explored\n"
"  -r, --replay PICKS   re-run one execution (from a counterexample) with its trace\n"
"  -n, --no-hash        do not prune states already explored (slow; a cross-check)\n"
"  -C, --no-cmpxchg     programs of reads and sets only\n"
"  -s, --strict-cmpxchg a cmpxchg must not fail only because a write landed\n"
"                       while it ran (the article's words taken literally)\n"
"  -l, --list           the variants\n"
"  -j, --json FILE      the result as JSON too (- for standard output)\n"
"\n"
"Exit status: 0 all requirements hold, 1 counterexample, 2 usage error.\n",
		RBM_MAX_OPS, RBM_MAX_DEPTH);
}

static bool no_cmpxchg;
/* --value: V2 as given, else twice V1's pattern */
static bool v2_given;
static u64 v2;

static void setup(const struct rbm_variant *var, int depth, int ops)
{
	static const u64 pattern = 1ULL << 30 | 1;

	rbm.var = var;
	rbm.depth = depth;
	rbm.ops = ops;
	rbm.vals[0] = 0;
	rbm.vals[1] = pattern & var->value_mask;
	/*
	 * A V2 given is set as it is, also where the variant holds fewer bits
	 * (the article's 60): whether a value survives the split form is the
	 * question --value asks.
	 */
	rbm.vals[2] = v2_given ? v2 : 2 * pattern & var->value_mask;
	rbm.nmenu = 0;
	rbm.menu[rbm.nmenu++] = (struct rbm_op){ .kind = OP_READ };
	rbm.menu[rbm.nmenu++] = (struct rbm_op){ .kind = OP_SET, .a = 1 };
	rbm.menu[rbm.nmenu++] = (struct rbm_op){ .kind = OP_SET, .a = 2 };
	if (var->cmpxchg && !no_cmpxchg) {
		rbm.menu[rbm.nmenu++] = (struct rbm_op){ .kind = OP_CMPXCHG, .a = 1, .b = 2 };
		rbm.menu[rbm.nmenu++] = (struct rbm_op){ .kind = OP_CMPXCHG, .a = 2, .b = 1 };
	}
}

static void describe(void)
{
	char ops[256] = "";
	size_t n = 0;

	printf("rbmodel: variant %s: %s\n", rbm.var->name, rbm.var->what);
	for (int i = 0; i < rbm.nmenu; i++)
		n += snprintf(ops + n, sizeof(ops) - n, "%s%s", i ? ", " : "",
			      rbm_op_name(&rbm.menu[i], (char[64]){ 0 }, 64));
	printf("rbmodel: %d nested contexts (", rbm.depth);
	for (int l = 0; l < rbm.depth; l++)
		printf("%s%s", l ? " > " : "", rbm_level_names[l]);
	printf("), up to %d operations each from {%s}, V1=%#llx V2=%#llx\n", rbm.ops, ops,
	       (unsigned long long)rbm.vals[1], (unsigned long long)rbm.vals[2]);
	if (rbm.var->cmpxchg && no_cmpxchg)
		printf("rbmodel: cmpxchg left out (--no-cmpxchg)\n");
	if (!rbm.var->cmpxchg)
		printf("rbmodel: cmpxchg not modelled: %s\n", rbm.var->no_cmpxchg_why);
}

/* The options that replay the counterexample @seq. */
static const char *reproduce_args(const char *seq)
{
	static char buf[RBM_MAX_PATH + 160];

	snprintf(buf, sizeof(buf), "--variant %s --depth %d --ops %d%s%s --replay %s",
		 rbm.var->name, rbm.depth, rbm.ops, rbm.strict_cmpxchg ? " --strict-cmpxchg" : "",
		 no_cmpxchg ? " --no-cmpxchg" : "", seq);
	return buf;
}

/*
 * The result as JSON, for a run's verdict (images/model-verdict.py): the
 * last bound explored, the bound in words, and on a counterexample its
 * choices and the options that replay it.  0, or 2 with the error said.
 */
static int write_json(const char *path, const char *verdict, const char *seq, double secs)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "w") : stdout;
	char bounds[64];

	if (!f) {
		fprintf(stderr, "rbmodel: --json: cannot write '%s'\n", path);
		return 2;
	}
	snprintf(bounds, sizeof(bounds), "depth %d, %d operation%s", rbm.depth, rbm.ops,
		 rbm.ops > 1 ? "s" : "");
	fprintf(f, "{\"variant\": ");
	rbm_json_string(f, rbm.var->name);
	fprintf(f, ", \"depth\": %d, \"ops\": %d, \"verdict\": \"%s\", \"executions\": %llu, "
		"\"states\": %llu, \"seconds\": %.2f, \"why\": ", rbm.depth, rbm.ops, verdict,
		rbm.executions, rbm.states, secs);
	rbm_json_string(f, *seq ? rbm.why : "");
	fprintf(f, ", \"replay\": ");
	rbm_json_string(f, seq);
	fprintf(f, ", \"bounds\": ");
	rbm_json_string(f, bounds);
	fprintf(f, ", \"reproduce\": ");
	rbm_json_string(f, *seq ? reproduce_args(seq) : "");
	fprintf(f, "}\n");
	if (f != stdout)
		fclose(f);
	return 0;
}

static int replay(const char *picks, bool quiet_verdict)
{
	int n = strlen(picks);

	if (n > RBM_MAX_PATH)
		return bad_usage("--replay: too long", "");
	for (int i = 0; i < n; i++) {
		int p = rbm_search_char_pick(picks[i]);

		if (p < 0)
			return bad_usage("--replay: not a choice string", picks);
		rbm.path[i].pick = p;
		rbm.path[i].n = 36;
	}
	rbm.plen = n;
	rbm.hashing = false;
	rbm.trace = stdout;
	printf("  step  context    operation          access                     | words after\n");
	if (rbm_run_once() == RBM_END_VIOLATION) {
		if (!quiet_verdict)
			printf("rbmodel: COUNTEREXAMPLE: %s\n", rbm.why);
		return 1;
	}
	printf("rbmodel: this execution meets every requirement\n");
	return 0;
}

#endif /* !RBM_ARGS_ONLY */

/* The command line, parsed and checked before anything is explored. */
struct args {
	const char	*variant, *picks, *json;
	bool		hashing, exact, verbose, strict_cmpxchg, no_cmpxchg, list, help;
	bool		v2_given;
	u64		v2;
	int		ops, depth;
};

/* 0, or 2 with the usage error said */
static int parse_args(int argc, char **argv, struct args *a)
{
	static const struct option longopts[] = {
		{ "variant",	required_argument, NULL, 'v' },
		{ "ops",	required_argument, NULL, 'k' },
		{ "depth",	required_argument, NULL, 'd' },
		{ "value",	required_argument, NULL, 'w' },
		{ "replay",	required_argument, NULL, 'r' },
		{ "no-hash",	no_argument,	   NULL, 'n' },
		{ "strict-cmpxchg", no_argument,   NULL, 's' },
		{ "exact",	no_argument,	   NULL, 'x' },
		{ "no-cmpxchg",	no_argument,	   NULL, 'C' },
		{ "verbose",	no_argument,	   NULL, 'V' },
		{ "list",	no_argument,	   NULL, 'l' },
		{ "json",	required_argument, NULL, 'j' },
		{ "help",	no_argument,	   NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	char *end;
	int c;

	*a = (struct args){ .variant = "tree", .hashing = true, .ops = 4, .depth = 4 };
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":v:k:d:w:r:nsxCVlj:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'v':
			a->variant = optarg;
			break;
		case 'k':
			a->ops = strtol(optarg, &end, 10);
			if (*end || end == optarg || a->ops < 1 || a->ops > RBM_MAX_OPS)
				return bad_usage("--ops: not a number from 1 to 8:", optarg);
			break;
		case 'd':
			a->depth = strtol(optarg, &end, 10);
			if (*end || end == optarg || a->depth < 1 || a->depth > RBM_MAX_DEPTH)
				return bad_usage("--depth: not a number from 1 to 5:", optarg);
			break;
		case 'w':
			errno = 0;
			a->v2 = strtoull(optarg, &end, 0);
			if (*end || end == optarg || errno || optarg[0] == '-')
				return bad_usage("--value: not a 64-bit number:", optarg);
			a->v2_given = true;
			break;
		case 'r':
			a->picks = optarg;
			break;
		case 'n':
			a->hashing = false;
			break;
		case 's':
			a->strict_cmpxchg = true;
			break;
		case 'x':
			a->exact = true;
			break;
		case 'C':
			a->no_cmpxchg = true;
			break;
		case 'V':
			a->verbose = true;
			break;
		case 'l':
			a->list = true;
			break;
		case 'j':
			a->json = optarg;
			break;
		case 'h':
			a->help = true;
			break;
		case ':':
			return bad_usage("option needs a value:", argv[optind - 1]);
		default:
			return bad_usage("unknown option", argv[optind - 1]);
		}
	}
	if (optind < argc)
		return bad_usage("unexpected argument", argv[optind]);
	return 0;
}

#ifdef RBM_ARGS_ONLY
/*
 * rbmodel-args: the same command line checked, nothing else, built without
 * a kernel tree, so that ./run.sh model refuses a bad option before it
 * extracts and patches a tree (the variant's name is checked by rbmodel).
 */
int main(int argc, char **argv)
{
	struct args a;

	return parse_args(argc, argv, &a);
}
#else
int main(int argc, char **argv)
{
	const struct rbm_variant *var = NULL;
	const char *picks;
	bool hashing, exact, verbose;
	int ops, depth, found;
	double t0, t1;
	struct timespec ts;
	struct args a;

	if (parse_args(argc, argv, &a))
		return 2;
	if (a.help) {
		usage(stdout);
		return 0;
	}
	if (a.list) {
		for (size_t i = 0; i < NVARIANTS; i++)
			printf("%-20s %s\n", variants[i]->name, variants[i]->what);
		return 0;
	}
	for (size_t i = 0; i < NVARIANTS; i++)
		if (!strcmp(a.variant, variants[i]->name))
			var = variants[i];
	if (!var)
		return bad_usage("--variant: no such variant (see --list):", a.variant);
	if (a.json && !rbm_json_writable(a.json))
		return bad_usage("--json: cannot write", a.json);
	picks = a.picks;
	hashing = a.hashing;
	exact = a.exact;
	verbose = a.verbose;
	ops = a.ops;
	depth = a.depth;
	rbm.strict_cmpxchg = a.strict_cmpxchg;
	no_cmpxchg = a.no_cmpxchg;
	v2_given = a.v2_given;
	v2 = a.v2;

	setup(var, depth, ops);
	describe();
	if (picks)
		return replay(picks, false);

	rbm.hashing = hashing;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	t0 = ts.tv_sec + ts.tv_nsec / 1e9;
	/*
	 * Smaller bounds first (unless --exact): they are cheap, and the
	 * first counterexample found is then one of the shortest.
	 */
	found = 0;
	for (int d = exact ? depth : 1; d <= depth && !found; d++) {
		for (int k = exact ? ops : 1; k <= ops && !found; k++) {
			unsigned long long before = rbm.executions;

			setup(var, d, k);
			found = rbm_explore();
			if (verbose || found || (d == depth && k == ops))
				printf("rbmodel: depth %d, %d operations: %llu executions%s\n", d, k,
				       rbm.executions - before,
				       found ? ": COUNTEREXAMPLE" : ", all requirements hold");
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &ts);
	t1 = ts.tv_sec + ts.tv_nsec / 1e9;
	printf("rbmodel: explored %llu executions (%llu complete, %llu cut at a state already "
	       "explored), %llu distinct states, %.1f s\n", rbm.executions, rbm.complete,
	       rbm.pruned, rbm.states, t1 - t0);
	if (!found) {
		printf("rbmodel: all requirements hold up to depth %d, %d operations\n", depth, ops);
		return a.json && write_json(a.json, "pass", "", t1 - t0) ? 2 : 0;
	}

	char seq[RBM_MAX_PATH + 1];
	int n = rbm.pos;

	for (int i = 0; i < n; i++)
		seq[i] = rbm_search_pick_char(rbm.path[i].pick);
	seq[n] = '\0';
	printf("rbmodel: COUNTEREXAMPLE: %s\n", rbm.why);
	printf("rbmodel: the interleaving, step by step:\n");
	rbm.tstep = 0;
	replay(seq, true);
	printf("rbmodel: reproduce: rbmodel %s\n", reproduce_args(seq));
	return a.json && write_json(a.json, "counterexample", seq, t1 - t0) ? 2 : 1;
}
#endif /* RBM_ARGS_ONLY */
