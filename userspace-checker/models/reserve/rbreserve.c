// SPDX-License-Identifier: GPL-2.0
/*
 * rbreserve: run the tree's own reserve path (__rb_reserve_next(), steps
 * A-F, with the commit and discard paths) for every way up to --depth
 * contexts of --ops events each can nest on one CPU, and for every clock
 * that moves or stands still at each read, against the oracle of
 * rbr_oracle.c.
 *
 * Exit status: 0 the oracle holds, 1 counterexample, 2 usage error or the
 * model could not follow the code (overwrite mode).
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rbr_model.h"
#include "rbm_search.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static int bad_usage(const char *what, const char *arg)
{
	fprintf(stderr, "rbreserve: %s '%s' (see rbreserve --help)\n", what, arg);
	return 2;
}

#ifndef RBR_ARGS_ONLY
static void usage(FILE *f)
{
	fprintf(f,
"usage: rbreserve [--variant NAME] [--depth D] [--ops K|K0,K1..] [--no-discard] [--replay PICKS]\n"
"                 [--exact] [--verbose] [--no-hash] [--no-reduce] [--jobs N]\n"
"                 [--page-size N] [--clock-jump] [--json FILE]\n"
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
"  -k, --ops K          events per context, 1 to %d, or one number per level,\n"
"                       outermost first (1,3: the task 1, the softirq 3)\n"
"                       (neither given: the default bounds, which finish in\n"
"                       seconds: the first line of the output names them;\n"
"                       one given: the other is 3 levels or 2 events)\n"
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
"  -P, --page-size N    the sub-buffer's size in bytes, its 16-byte header\n"
"                       included: 4096 (the default; no bound fills it) or a\n"
"                       smaller power of two from 32, so that events switch\n"
"                       sub-buffers (64: 48 bytes, six 8-byte events)\n"
"  -c, --clock-jump     one clock read of each execution may also jump by\n"
"                       3*2^26 ns (more than an event's 27-bit delta holds:\n"
"                       the time-extend path); every bound given or default\n"
"                       (the last default bound has it anyway)\n"
"  -J, --jobs N         N processes, each exploring its share of every bound\n"
"                       (subtrees by their first choices; default 1)\n"
"  -j, --json FILE      the result as JSON too (- for standard output)\n"
"  -l, --list           the variants\n"
"\n"
"Exit status: 0 the oracle holds, 1 counterexample, 2 usage error or outside\n"
"the model.\n", RBR_MAX_DEPTH, RBR_MAX_OPS);
}

#endif

/*
 * A bound: how many contexts nest (normal, softirq, irq, NMI) and how many
 * events each may write, outermost first.
 */
struct bound {
	int depth;
	int ops[RBR_MAX_DEPTH];
	unsigned long page_size;	/* the sub-buffer's, header included */
	bool jumps;			/* one clock read may jump (--clock-jump) */
};

#ifndef RBR_ARGS_ONLY
/*
 * The default bounds, explored in this order: every seeded fault and
 * every finding we know shows in one of them, and our trees hold in all
 * of them in seconds (docs/model.md).  An interrupt that writes three
 * events into one event of the task is the shortest way to a slow path
 * whose stamp an event after it pairs with (slow-path-sets-write-stamp);
 * depth 2 with 3 events each takes minutes.  The fourth has sub-buffers of
 * two 8-byte events, so that events switch sub-buffers; in the last one
 * clock read may jump past a 27-bit delta (the time-extend path, finding
 * (r)): 1 s, where the jump with the other bounds takes half a minute.
 */
static const struct bound default_bounds[] = {
	{ .depth = 2, .ops = { 2, 2 }, .page_size = RBR_PAGE_DEFAULT },
	{ .depth = 3, .ops = { 1, 1, 1 }, .page_size = RBR_PAGE_DEFAULT },
	{ .depth = 2, .ops = { 1, 3 }, .page_size = RBR_PAGE_DEFAULT },
	{ .depth = 2, .ops = { 2, 2 }, .page_size = 32 },
	{ .depth = 3, .ops = { 1, 1, 1 }, .page_size = RBR_PAGE_DEFAULT, .jumps = true },
};
#define DEFAULT_BOUNDS_TEXT	"depth 2, 2 events; depth 3, 1 event; depth 2, events 1,3; " \
				"depth 2, 2 events on 32-byte sub-buffers; " \
				"depth 3, 1 event with a clock jump"

#endif

/* "K" (every level) or "K0,K1,..." (one per level); -1 if neither */
static int parse_ops(const char *arg, struct bound *b, bool *per_level)
{
	const char *p = arg;
	int n = 0;

	*per_level = strchr(arg, ',') != NULL;
	do {
		char *end;
		long k = strtol(p, &end, 10);

		if (end == p || k < 1 || k > RBR_MAX_OPS || n == RBR_MAX_DEPTH ||
		    (*end && *end != ','))
			return -1;
		b->ops[n++] = k;
		p = *end ? end + 1 : end;
	} while (*p);
	if (p > arg && p[-1] == ',')
		return -1;
	return n;
}

#ifndef RBR_ARGS_ONLY
static void setup(const struct rbr_variant *var, const struct bound *b, bool discards)
{
	rbr.var = var;
	rbr_page_size = b->page_size;
	rbr_clock_jumps = b->jumps;
	rbr.depth = b->depth;
	memcpy(rbr.ops, b->ops, sizeof(rbr.ops));
	rbr.discards = discards;
}

/* the --ops argument of a bound: "K" if every level has K */
static char *ops_arg(const struct bound *b, char *buf, size_t len)
{
	size_t n = 0;
	int l = 1;

	while (l < b->depth && b->ops[l] == b->ops[0])
		l++;
	if (l == b->depth) {
		snprintf(buf, len, "%d", b->ops[0]);
		return buf;
	}
	buf[0] = '\0';
	for (l = 0; l < b->depth && n < len; l++)
		n += snprintf(buf + n, len - n, "%s%d", l ? "," : "", b->ops[l]);
	return buf;
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

/*
 * The JSON result: the last bound explored (depth, ops, page_size), the
 * bounds in words (@bounds: every one explored, or the one a counterexample
 * was found in), and on a counterexample
 * the choices (replay) and the rbreserve options that replay it
 * (@reproduce), which a run's verdict quotes.
 */
static int write_json(const char *path, const char *verdict, const char *seq, double secs,
		      const char *bounds, const char *reproduce)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "w") : stdout;
	int max = 0;

	for (int l = 0; l < rbr.depth; l++)
		if (rbr.ops[l] > max)
			max = rbr.ops[l];

	if (!f) {
		fprintf(stderr, "rbreserve: --json: cannot write '%s'\n", path);
		return 2;
	}
	fprintf(f, "{\"variant\": ");
	rbm_json_string(f, rbr.var->name);
	/* ops: the largest budget of a level; ops_per_level: each, outermost first */
	fprintf(f, ", \"depth\": %d, \"ops\": %d, \"ops_per_level\": [", rbr.depth, max);
	for (int l = 0; l < rbr.depth; l++)
		fprintf(f, "%s%d", l ? ", " : "", rbr.ops[l]);
	fprintf(f, "], \"page_size\": %lu, \"clock_jump\": %s, \"discards\": %s, \"verdict\": \"%s\", "
		"\"executions\": %llu, \"states\": %llu, \"commuted\": %llu, \"reduced\": %s, "
		"\"seconds\": %.2f, \"why\": ",
		rbr_page_size, rbr_clock_jumps ? "true" : "false",
		rbr.discards ? "true" : "false", verdict,
		rbr.executions, rbr.states, rbr.commuted, rbr.reducing ? "true" : "false", secs);
	rbm_json_string(f, rbr.why);
	fprintf(f, ", \"replay\": ");
	rbm_json_string(f, seq);
	fprintf(f, ", \"bounds\": ");
	rbm_json_string(f, bounds);
	fprintf(f, ", \"reproduce\": ");
	rbm_json_string(f, reproduce);
	fprintf(f, "}\n");
	if (f != stdout)
		fclose(f);
	return 0;
}

/*
 * Explore bound @b and, unless @exact, the smaller ones first: every
 * depth up to its own, each with the per-level budgets capped at 1, 2,
 * ... (so "2,2" is depth 1 with 1 and 2 events, then depth 2 with 1 and
 * 2): they are cheap, and the first counterexample found is then one of
 * the shortest.  A bound explored before (@done, @ndone) is skipped.
 */
static int explore_bound(const struct rbr_variant *var, const struct bound *b, bool exact,
			 bool discards, int jobs, bool verbose, bool last,
			 struct bound *done, int *ndone)
{
	int end = RBR_END_OK, max = 0;

	for (int l = 0; l < b->depth; l++)
		if (b->ops[l] > max)
			max = b->ops[l];
	for (int d = exact ? b->depth : 1; d <= b->depth && !end; d++) {
		for (int k = exact ? max : 1; k <= max && !end; k++) {
			unsigned long long before = rbr.executions;
			struct bound w = { .depth = d, .page_size = b->page_size,
					   .jumps = b->jumps };
			bool again = false, final;
			char text[64];

			for (int l = 0; l < d; l++)
				w.ops[l] = b->ops[l] < k ? b->ops[l] : k;
			for (int i = 0; i < *ndone; i++)
				again |= !memcmp(&done[i], &w, sizeof(w));
			if (again)
				continue;
			done[(*ndone)++] = w;
			final = d == b->depth && k == max;
			setup(var, &w, discards);
			end = rbr_explore_jobs(jobs);
			if (verbose || end || (last && final))
				printf("rbreserve: %s: %llu executions%s\n", rbr_bound(text, sizeof(text)),
				       rbr.executions - before,
				       end == RBR_END_VIOLATION ? ": COUNTEREXAMPLE" :
				       end ? ": OUTSIDE THE MODEL" : ", every rule holds");
		}
	}
	return end;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

#endif

/* The command line, parsed and checked before anything is explored. */
struct args {
	const char	*variant, *picks, *json;
	bool		hashing, reducing, exact, verbose, discards, per_level, list, help, jumps;
	int		nops, depth, jobs;
	struct bound	b;		/* --ops per level */
	unsigned long	page_size, probes;
};

/* 0, or 2 with the usage error said */
static int parse_args(int argc, char **argv, struct args *a)
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
		{ "page-size",	required_argument, NULL, 'P' },
		{ "clock-jump",	no_argument,	   NULL, 'c' },
		{ "help",	no_argument,	   NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	char *endp, text[64];
	int c;

	*a = (struct args){ .hashing = true, .reducing = true, .discards = true, .jobs = 1,
			    .b = { .page_size = RBR_PAGE_DEFAULT } };
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":v:k:d:Dr:nRxVj:le:J:P:ch", longopts, NULL)) != -1) {
		switch (c) {
		case 'v':
			a->variant = optarg;
			break;
		case 'k':
			a->nops = parse_ops(optarg, &a->b, &a->per_level);
			if (a->nops < 0)
				return bad_usage("--ops: not a number from 1 to 4, or one per level "
						 "(outermost first, comma-separated):", optarg);
			break;
		case 'd':
			a->depth = strtol(optarg, &endp, 10);
			if (*endp || endp == optarg || a->depth < 1 || a->depth > RBR_MAX_DEPTH)
				return bad_usage("--depth: not a number from 1 to 4:", optarg);
			break;
		case 'D':
			a->discards = false;
			break;
		case 'r':
			a->picks = optarg;
			break;
		case 'n':
			a->hashing = false;
			break;
		case 'R':
			a->reducing = false;
			break;
		case 'x':
			a->exact = true;
			break;
		case 'V':
			a->verbose = true;
			break;
		case 'j':
			a->json = optarg;
			break;
		case 'e':
			a->probes = strtoul(optarg, &endp, 10);
			if (*endp || endp == optarg || !a->probes || a->probes > 100000000UL)
				return bad_usage("--estimate: not a number from 1 to 100000000:", optarg);
			break;
		case 'J':
			a->jobs = strtol(optarg, &endp, 10);
			if (*endp || endp == optarg || a->jobs < 1 || a->jobs > 64)
				return bad_usage("--jobs: not a number from 1 to 64:", optarg);
			break;
		case 'c':
			a->jumps = true;
			break;
		case 'P':
			a->page_size = strtoul(optarg, &endp, 10);
			if (*endp || endp == optarg || a->page_size < 32 ||
			    a->page_size > RBR_PAGE_DEFAULT || (a->page_size & (a->page_size - 1)))
				return bad_usage("--page-size: not a power of two from 32 to 4096:", optarg);
			break;
		case 'l':
			a->list = true;
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
	if (a->per_level && a->depth && a->depth != a->nops) {
		snprintf(text, sizeof(text), "%d", a->depth);
		return bad_usage("--ops: one number per level, but --depth says", text);
	}
	return 0;
}

#ifdef RBR_ARGS_ONLY
/*
 * rbreserve-args: the same command line checked, nothing else, built
 * without a kernel tree, so that ./run.sh model --reserve refuses a bad
 * option before it extracts and patches a tree (the variant's name, which
 * depends on the tree, is checked by rbreserve).
 */
int main(int argc, char **argv)
{
	struct args a;

	return parse_args(argc, argv, &a);
}
#else
int main(int argc, char **argv)
{
	const struct rbr_variant *var = rbr_variants[0];
	const char *picks, *json;
	bool hashing, reducing, exact, verbose, discards, per_level;
	int nops, depth, end = RBR_END_OK, jobs, nbounds, ndone = 0;
	struct bound bounds[ARRAY_SIZE(default_bounds)], done[64];
	struct bound b;
	unsigned long page_size;
	char seq[RBR_MAX_PATH + 1] = "", text[64], repro[RBR_MAX_PATH + 160] = "";
	double t0;
	unsigned long probes;
	struct args a;

	/* a line at a time: a long run that is stopped keeps what it said */
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (parse_args(argc, argv, &a))
		return 2;
	if (a.help) {
		usage(stdout);
		return 0;
	}
	if (a.list) {
		for (unsigned int i = 0; i < rbr_nvariants; i++)
			printf("%-28s %s\n", rbr_variants[i]->name, rbr_variants[i]->what);
		return 0;
	}
	if (a.variant) {
		var = NULL;
		for (unsigned int i = 0; i < rbr_nvariants; i++)
			if (!strcmp(a.variant, rbr_variants[i]->name))
				var = rbr_variants[i];
		if (!var)
			return bad_usage("--variant: no such variant (see --list):", a.variant);
	}
	picks = a.picks;
	json = a.json;
	if (json && !rbm_json_writable(json))
		return bad_usage("--json: cannot write", json);
	hashing = a.hashing;
	reducing = a.reducing;
	exact = a.exact;
	verbose = a.verbose;
	discards = a.discards;
	per_level = a.per_level;
	nops = a.nops;
	depth = a.depth;
	jobs = a.jobs;
	b = a.b;
	page_size = a.page_size;
	probes = a.probes;
	if (per_level)
		depth = nops;
	if (depth || nops) {
		/* a bound given: the other half is 3 levels or 2 events */
		b.depth = depth ? depth : 3;
		for (int l = per_level ? b.depth : 0; l < b.depth; l++)
			b.ops[l] = nops ? b.ops[0] : 2;
		bounds[0] = b;
		nbounds = 1;
	} else {
		for (nbounds = 0; nbounds < (int)ARRAY_SIZE(default_bounds); nbounds++)
			bounds[nbounds] = default_bounds[nbounds];
		/* --replay and --estimate without a bound: 3 levels of 2 events */
		b = (struct bound){ .depth = 3, .ops = { 2, 2, 2 }, .page_size = RBR_PAGE_DEFAULT };
	}

	/* --clock-jump: every bound's clock */
	for (int i = 0; a.jumps && i < nbounds; i++)
		bounds[i].jumps = true;
	b.jumps = b.jumps || a.jumps;
	/* --page-size: every bound's sub-buffers */
	for (int i = 0; page_size && i < nbounds; i++)
		bounds[i].page_size = page_size;
	if (page_size)
		b.page_size = page_size;
	setup(var, nbounds == 1 ? &bounds[0] : &b, discards);
	printf("rbreserve: variant %s: %s\n", var->name, var->what);
	printf("rbreserve: %d nested contexts (", rbr.depth);
	for (int l = 0; l < rbr.depth; l++)
		printf("%s%s", l ? " > " : "", rbr_level_names[l]);
	printf("), %s, %s; one CPU; the clock moves by %llu or not at each read%s\n",
	       nbounds == 1 || picks || probes ? rbr_bound(text, sizeof(text)) :
	       "the default bounds (" DEFAULT_BOUNDS_TEXT ")",
	       discards ? "each event committed or discarded" : "each event committed", RBR_TICK,
	       b.jumps ? " (or jumps by 3*2^26, once)" : "");
	if (picks)
		return replay(picks, false);

	if (probes) {
		double max, mean;

		t0 = now();
		mean = rbr_estimate(probes, &max);
		printf("rbreserve: %s: about %.3g executions without pruning "
		       "(mean of %lu random executions; the largest weight %.3g), %.1f s\n",
		       rbr_bound(text, sizeof(text)), mean, probes, max, now() - t0);
		return 0;
	}
	rbr.hashing = hashing;
	rbr.reducing = reducing;
	t0 = now();
	for (int i = 0; i < nbounds && !end; i++)
		end = explore_bound(var, &bounds[i], exact, discards, jobs, verbose,
				    i == nbounds - 1, done, &ndone);
	/* passed: the JSON and the verdict name the last bound */
	if (!end)
		setup(var, &bounds[nbounds - 1], discards);
	printf("rbreserve: explored %llu executions (%llu complete, %llu cut at a state already "
	       "explored, %llu at an interrupt the same as an earlier one), %llu distinct states, "
	       "%.1f s\n", rbr.executions, rbr.complete, rbr.pruned - rbr.commuted, rbr.commuted,
	       rbr.states, now() - t0);
	if (end) {
		for (int i = 0; i < rbr.pos; i++)
			seq[i] = rbm_search_pick_char(rbr.path[i].pick);
		seq[rbr.pos] = '\0';
		b = (struct bound){ .depth = rbr.depth };
		memcpy(b.ops, rbr.ops, sizeof(b.ops));
		snprintf(repro, sizeof(repro), "--variant %s --depth %d --ops %s", var->name,
			 rbr.depth, ops_arg(&b, text, sizeof(text)));
		if (rbr_page_size != RBR_PAGE_DEFAULT)
			snprintf(repro + strlen(repro), sizeof(repro) - strlen(repro),
				 " --page-size %lu", rbr_page_size);
		snprintf(repro + strlen(repro), sizeof(repro) - strlen(repro), "%s%s --replay %s",
			 rbr_clock_jumps ? " --clock-jump" : "", discards ? "" : " --no-discard", seq);
	}
	if (json && write_json(json, end == RBR_END_VIOLATION ? "counterexample" :
			       end ? "unmodelled" : "pass", seq, now() - t0,
			       end || nbounds == 1 ? rbr_bound(text, sizeof(text)) : DEFAULT_BOUNDS_TEXT,
			       repro))
		return 2;
	if (!end) {
		if (nbounds == 1)
			printf("rbreserve: every rule holds up to %s\n", rbr_bound(text, sizeof(text)));
		else
			printf("rbreserve: every rule holds in the default bounds (" DEFAULT_BOUNDS_TEXT
			       ")\n");
		return 0;
	}
	printf("rbreserve: %s: %s\n", end == RBR_END_VIOLATION ? "COUNTEREXAMPLE" :
	       "OUTSIDE THE MODEL", rbr.why);
	printf("rbreserve: the interleaving, step by step:\n");
	replay(seq, true);
	printf("rbreserve: reproduce: rbreserve %s\n", repro);
	return end == RBR_END_VIOLATION ? 1 : 2;
}
#endif /* RBR_ARGS_ONLY */
