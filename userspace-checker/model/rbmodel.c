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

static const struct rbm_variant *const variants[] = {
	&rbm_variant_tree,
	&rbm_variant_article,
	&rbm_variant_read_nocnt,
	&rbm_variant_set_noretry,
	&rbm_variant_cmpxchg_nocnt,
};
#define NVARIANTS (sizeof(variants) / sizeof(variants[0]))

static int bad_usage(const char *what, const char *arg)
{
	fprintf(stderr, "rbmodel: %s '%s' (see rbmodel --help)\n", what, arg);
	return 2;
}

static void usage(FILE *f)
{
	fprintf(f,
"usage: rbmodel [--variant NAME] [--ops K] [--depth D] [--value V2] [--replay PICKS] [--no-hash]\n"
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

int main(int argc, char **argv)
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
		{ "help",	no_argument,	   NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const struct rbm_variant *var = &rbm_variant_tree;
	const char *picks = NULL;
	bool hashing = true, exact = false, verbose = false;
	int ops = 4, depth = 4, c, found;
	char *end;
	double t0, t1;
	struct timespec ts;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":v:k:d:w:r:nsxCVlh", longopts, NULL)) != -1) {
		switch (c) {
		case 'v':
			var = NULL;
			for (size_t i = 0; i < NVARIANTS; i++)
				if (!strcmp(optarg, variants[i]->name))
					var = variants[i];
			if (!var)
				return bad_usage("--variant: no such variant (see --list):", optarg);
			break;
		case 'k':
			ops = strtol(optarg, &end, 10);
			if (*end || end == optarg || ops < 1 || ops > RBM_MAX_OPS)
				return bad_usage("--ops: not a number from 1 to 8:", optarg);
			break;
		case 'd':
			depth = strtol(optarg, &end, 10);
			if (*end || end == optarg || depth < 1 || depth > RBM_MAX_DEPTH)
				return bad_usage("--depth: not a number from 1 to 5:", optarg);
			break;
		case 'w':
			errno = 0;
			v2 = strtoull(optarg, &end, 0);
			if (*end || end == optarg || errno || optarg[0] == '-')
				return bad_usage("--value: not a 64-bit number:", optarg);
			v2_given = true;
			break;
		case 'r':
			picks = optarg;
			break;
		case 'n':
			hashing = false;
			break;
		case 's':
			rbm.strict_cmpxchg = true;
			break;
		case 'x':
			exact = true;
			break;
		case 'C':
			no_cmpxchg = true;
			break;
		case 'V':
			verbose = true;
			break;
		case 'l':
			for (size_t i = 0; i < NVARIANTS; i++)
				printf("%-20s %s\n", variants[i]->name, variants[i]->what);
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
		return 0;
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
	printf("rbmodel: reproduce: rbmodel --variant %s --depth %d --ops %d%s%s --replay %s\n",
	       var->name, rbm.depth, rbm.ops, rbm.strict_cmpxchg ? " --strict-cmpxchg" : "",
	       no_cmpxchg ? " --no-cmpxchg" : "", seq);
	return 1;
}
