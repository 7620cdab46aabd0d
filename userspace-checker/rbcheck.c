// SPDX-License-Identifier: GPL-2.0
/*
 * rbcheck - verify the time stamps the ring buffer gave rbstress events.
 *
 *   rbcheck live [options]         read a tracefs instance while it records
 *   rbcheck verify [options] FILE  read a trace.dat written by trace-cmd
 *
 * Exit status: 0 PASS, 1 FAIL, 2 usage or input error.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <tracefs.h>

#include "rb_capture.h"
#include "rb_live.h"
#include "rb_raw.h"
#include "rb_report.h"
#include "rb_dump.h"
#include "rb_stacks.h"
#include "rb_trace_clocks.h"
#include "rb_tracedat.h"

#define EXIT_PASS	0
#define EXIT_FAIL	1
#define EXIT_USAGE	2

static const char *argv0 = "rbcheck";
static const char *ktap_file, *json_file, *save_dir, *trace_clock, *override_clock;
static int dump_cpu = -1;	/* dump --cpu */
static bool verdict_line_only;	/* stacks, dump: the events are the output */
static bool use_libtracecmd;	/* --reader libtracecmd */

/* A report's file ("-": stdout), opened before anything is printed; NULL after a message. */
static FILE *open_report(const char *path)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "w") : stdout;

	if (!f)
		fprintf(stderr, "%s: %s: %s\n", argv0, path, strerror(errno));
	return f;
}

/* Write one report format to @f, opened by open_report().  Returns -1 on error. */
static int write_report(FILE *f, const char *path, const struct rb_input *in, const char *source,
			void (*fn)(FILE *, const struct rb_input *, const char *))
{
	fn(f, in, source);
	if (f != stdout && fclose(f)) {
		fprintf(stderr, "%s: %s: %s\n", argv0, path, strerror(errno));
		return -1;
	}
	return 0;
}

static void usage(FILE *f)
{
	fprintf(f,
"usage: %s live [options]\n"
"       %s verify [options] TRACE.DAT|RAW-DIR\n"
"       %s stacks [--max N] TRACE.DAT|RAW-DIR\n"
"       %s dump [--cpu N] TRACE.DAT|RAW-DIR\n"
"\n"
"Verify the ring buffer time stamps of rbstress events: per CPU, in buffer\n"
"order, every event nested in another after that one reserved its space\n"
"(step C) must have a later time stamp; see docs/checker.md for the rules.\n"
"\n"
"live: read the per-CPU buffers of a tracefs instance while the module\n"
"writes, for --duration seconds; then turn the instance's tracing off and\n"
"read what is left.\n"
"  -i, --instance NAME     tracefs instance (default: the top level)\n"
"  -d, --duration SEC      how long to read (default 10)\n"
"  -p, --progress SEC      a progress line on stderr every SEC seconds\n"
"  -s, --save-raw DIR      keep every sub-buffer read, with the formats, in DIR\n"
"                          ('rbcheck verify DIR' must give the same verdict)\n"
"  -f, --stop-on-fail      end the run at the first violation\n"
"  -K, --keep-failing DIR  at the first violation, write the last 32 sub-buffers\n"
"                          of every CPU to DIR (a raw capture)\n"
"  -q, --quiet-ms MS       after tracing is off, read until nothing came and the\n"
"                          stats stood still for MS ms (default 100): writers\n"
"                          in flight still commit (at most 10 s of waiting)\n"
"  SIGINT or SIGTERM ends the run early; the summary is still written.\n"
"\n"
"verify: read a trace.dat written by trace-cmd record, or a raw capture\n"
"directory, and judge every event of any format (time never goes back per\n"
"CPU; under the counter clock no two stamps are equal; the contexts from\n"
"common_flags, and how often a higher one right after a lower one had\n"
"delta 0), and rbstress events by all the rules.  A raw capture is written\n"
"by live --save-raw or by rbdrain (possibly on another\n"
"machine: its long size and endianness are honoured; rbdrain's captures\n"
"carry the kernel's path counters too).  The per-CPU data of a version 7\n"
"trace.dat is streamed one zstd chunk at a time.\n"
"  -C, --trace-clock NAME  the clock the capture was recorded with, if the file\n"
"                          does not say (a raw capture; a trace.dat says, and\n"
"                          NAME must then be the same): under 'counter' no two\n"
"                          events of a CPU may share a stamp\n"
"      --override-clock NAME  judge as recorded with NAME whatever the file\n"
"                          says (the report notes it)\n"
"  -R, --reader auto|libtracecmd\n"
"                          libtracecmd: read all of a trace.dat through\n"
"                          libtracecmd instead (slower on large compressed files)\n"
"      --mapped            the trace.dat was read through a memory-mapped ring\n"
"                          buffer, which leaves stale bytes after a sub-buffer's\n"
"                          data; without it they must be zero, as the kernel's\n"
"                          read and splice give them (a check of the commit word)\n"
"Every sub-buffer of a trace.dat is checked before it is read, by either\n"
"reader: a commit word no kernel writes, a record past the data, bytes after\n"
"the data, a page repeated: exit 2, one line naming the CPU and sub-buffer.\n"
"\n"
"stacks: print the nesting stacks of a capture (each outer event, then the\n"
"events that opened their windows inside it, indented, with their delta),\n"
"then the verdict line.\n"
"  -m, --max N             at most N stacks per CPU (default 10)\n"
"\n"
"dump: print every rbstress event as the verifier reads it, one line each\n"
"(position, time stamp and delta, context and sequence, nesting fields,\n"
"clock read), then the verdict line: to read a violation in its\n"
"neighbourhood.  A capture without rbstress events has nothing to dump\n"
"(exit 2; trace-cmd report prints its events).\n"
"  -c, --cpu N             only the events of CPU N\n"
"\n"
"common options:\n"
"  -b, --clock-bound-us N  own-clock: how far before the event's own clock\n"
"                          read its time stamp may be (default 1000000)\n"
"  -n, --require-nested    FAIL if no event nested in another (nothing tested)\n"
"  -F, --filter-seq-mask M the event has the filter 'seq & M' (at times): a seq\n"
"                          gap of only filtered-out seqs is no violation, and a\n"
"                          stamp after the own clock read is counted as taken\n"
"                          at commit (the kernel's per-CPU filter buffer)\n"
"  -k, --ktap FILE         also write the verdicts as KTAP v1 to FILE\n"
"  -j, --json FILE         also write everything as one JSON object to FILE\n"
"                          (FILE '-': to stdout, instead of the text summary)\n"
"  -h, --help              this text\n"
"\n"
"exit status: 0 PASS, 1 FAIL, 2 usage or input error\n", argv0, argv0, argv0, argv0);
}

static int bad_usage(const char *fmt, const char *arg)
{
	fprintf(stderr, "%s: ", argv0);
	fprintf(stderr, fmt, arg);
	fprintf(stderr, " (see '%s --help')\n", argv0);
	return EXIT_USAGE;
}

static int parse_num(const char *s, double min, double max, double *out)
{
	char *end;
	double d;

	errno = 0;
	d = strtod(s, &end);
	if (errno || end == s || *end || d < min || d > max)
		return -1;
	*out = d;
	return 0;
}

static uint64_t cpu_events(const struct rb_verifier *v, int cpu)
{
	uint64_t n = 0;

	if (cpu < 0 || cpu >= RB_MAX_CPUS)
		return 0;
	for (int c = 0; c < RB_CTX_MAX; c++)
		n += v->cpu_ctx[cpu][c].events;
	return n;
}

/*
 * Exit status from the verdict; no event at all is an input error, and so
 * is a capture without rbstress events unless every event is judged
 * (verify: the generic rules).
 */
static int finish(struct rb_input *in, const char *source)
{
	FILE *ktap, *json;
	int ret;

	rb_verify_finish(in->v);
	if (in->g)
		rb_generic_finish(in->g);
	if (in->g && !in->v->events && !in->g->events) {
		fprintf(stderr, "%s: %s: no events at all\n", argv0, source);
		return EXIT_USAGE;
	}
	if (!in->v->events && !in->g) {
		fprintf(stderr, "%s: %s: no %s:%s events (%llu other records)\n", argv0,
			source, RB_EVENT_SYSTEM, RB_EVENT_NAME,
			(unsigned long long)in->records);
		return EXIT_USAGE;
	}
	if (verdict_line_only && !in->v->events) {
		fprintf(stderr, "%s: %s: no %s:%s events: nothing to show (rbcheck verify judges "
			"the %llu others)\n", argv0, source, RB_EVENT_SYSTEM, RB_EVENT_NAME,
			(unsigned long long)(in->g ? in->g->events : in->records));
		return EXIT_USAGE;
	}
	if (dump_cpu >= 0 && !cpu_events(in->v, dump_cpu)) {
		fprintf(stderr, "%s: %s: --cpu %d: no rbstress events on that CPU (%d CPU(s) "
			"have some)\n", argv0, source, dump_cpu, in->v->nr_cpus_seen);
		return EXIT_USAGE;
	}
	/* a report that cannot be written fails before anything is printed */
	ktap = ktap_file ? open_report(ktap_file) : NULL;
	json = json_file ? open_report(json_file) : NULL;
	if ((ktap_file && !ktap) || (json_file && !json)) {
		if (ktap && ktap != stdout)
			fclose(ktap);
		if (json && json != stdout)
			fclose(json);
		return EXIT_USAGE;
	}
	if (verdict_line_only)
		printf("rbcheck: %s: verdict %s (rbcheck verify for the rules)\n", source,
		       rb_verdict_names[rb_input_verdict(in)]);
	else if (ktap != stdout && json != stdout)
		rb_report_text(stdout, in, source);
	ret = rb_input_verdict(in) == RB_FAIL ? EXIT_FAIL : EXIT_PASS;
	if (ktap && write_report(ktap, ktap_file, in, source, rb_report_ktap) < 0)
		ret = EXIT_USAGE;
	if (json && write_report(json, json_file, in, source, rb_report_json) < 0)
		ret = EXIT_USAGE;
	return ret;
}

/* The events must carry the clock the instance records with. */
static int instance_clock(const char *instance, int *clock, char *err, size_t errlen)
{
	struct tracefs_instance *inst = instance ? tracefs_instance_alloc(NULL, instance) : NULL;
	char *name = tracefs_get_clock(inst);
	int ret = 0;

	if (!name) {
		snprintf(err, errlen, "cannot read trace_clock of %s",
			 instance ? instance : "the top-level instance");
		ret = -1;
	} else {
		*clock = rb_clock_from_name(name);
		if (*clock < 0) {
			snprintf(err, errlen, "trace clock '%s' cannot be read by rbstress", name);
			ret = -1;
		}
	}
	free(name);
	tracefs_instance_free(inst);
	return ret;
}

static void stop_handler(int sig)
{
	rb_live_stop = 1;
}

static int cmd_live(struct rb_input *in, struct rb_live_opts *o)
{
	struct sigaction sa = { .sa_handler = stop_handler };
	const char *systems[] = { RB_EVENT_SYSTEM, NULL };
	struct tep_handle *tep;
	const char *dir = NULL;
	int ret;

	if (tracefs_tracing_dir_is_mounted(false, &dir) <= 0 && !tracefs_tracing_dir()) {
		fprintf(stderr, "%s: tracefs is not mounted (mount -t tracefs nodev /sys/kernel/tracing)\n",
			argv0);
		return EXIT_USAGE;
	}
	tep = tracefs_local_events_system(NULL, systems);
	if (!tep) {
		fprintf(stderr, "%s: cannot read the event formats from tracefs\n", argv0);
		return EXIT_USAGE;
	}
	if (rb_format_init(&in->fmt, tep, in->err, sizeof(in->err)) < 0 ||
	    instance_clock(o->instance, &in->expect_clock, in->err, sizeof(in->err)) < 0) {
		fprintf(stderr, "%s: %s\n", argv0, in->err);
		tep_free(tep);
		return EXIT_USAGE;
	}
	o->save_dir = save_dir;
	/* Ctrl-C ends the reading, not the program: the summary still comes. */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	ret = rb_live_read(o, in);
	if (ret < 0) {
		fprintf(stderr, "%s: %s\n", argv0, in->err);
		tep_free(tep);
		return EXIT_USAGE;
	}
	rb_verify_counters(in->v, &in->counters);
	ret = finish(in, o->instance ? o->instance : "top-level instance");
	tep_free(tep);
	return ret;
}

/*
 * The trace clock to judge @path by: the one the file says it was
 * recorded with, else -C's.  -C against what the file says is a usage
 * error (one verdict per file, not per flag); --override-clock wins on
 * purpose, and says so.  "" if nothing says; NULL after a message when
 * the file and -C disagree.
 */
static const char *judge_clock(struct rb_input *in, const char *path, const char *file_clock)
{
	if (override_clock) {
		if (*file_clock && strcmp(file_clock, override_clock))
			snprintf(in->note, sizeof(in->note), "judged as trace clock '%s' "
				 "(--override-clock); %s says it was recorded with '%s'",
				 override_clock, path, file_clock);
		return override_clock;
	}
	if (*file_clock && trace_clock && strcmp(file_clock, trace_clock)) {
		fprintf(stderr, "%s: %s: recorded with trace clock '%s', not '%s' (-C is for a "
			"capture that does not say; --override-clock %s judges it so anyway)\n",
			argv0, path, file_clock, trace_clock, trace_clock);
		return NULL;
	}
	return *file_clock ? file_clock : trace_clock ? trace_clock : "";
}

static int cmd_verify(struct rb_input *in, const char *path)
{
	struct tracecmd_input *handle;
	static struct rb_generic g;
	static struct rb_tracedat_layout lay;
	char err[512];
	const char *clock;
	int ret;

	/* every event is judged too, whatever its format */
	in->g = &g;

	if (rb_raw_is_capture(path)) {
		struct rb_raw *raw = rb_raw_open(path, in, err, sizeof(err));

		if (!raw) {
			fprintf(stderr, "%s: %s\n", argv0, err);
			return EXIT_USAGE;
		}
		clock = judge_clock(in, path, rb_raw_clock(raw));
		if (!clock) {
			rb_raw_close(raw);
			return EXIT_USAGE;
		}
		rb_generic_init(&g, clock);
		ret = rb_raw_read(raw, in, err, sizeof(err));
		if (ret < 0) {
			fprintf(stderr, "%s: %s\n", argv0, err);
			rb_raw_close(raw);
			return EXIT_USAGE;
		}
		/* A capture of rbdrain has the kernel's path counters. */
		rb_verify_counters(in->v, &in->counters);
		ret = finish(in, path);
		rb_raw_close(raw);
		return ret;
	}
	rb_generic_init(&g, NULL);
	handle = rb_tracedat_open(path, in, &lay, err, sizeof(err));
	if (!handle) {
		fprintf(stderr, "%s: %s\n", argv0, err);
		return EXIT_USAGE;
	}
	clock = judge_clock(in, path, lay.clock);
	if (!clock) {
		rb_tracedat_close(handle);
		return EXIT_USAGE;
	}
	rb_generic_init(&g, clock);
	if (rb_tracedat_read(handle, path, &lay, !use_libtracecmd, in) < 0) {
		fprintf(stderr, "%s: %s: %s\n", argv0, path, in->err);
		rb_tracedat_close(handle);
		return EXIT_USAGE;
	}
	ret = finish(in, path);
	rb_tracedat_close(handle);
	return ret;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "instance",		required_argument, NULL, 'i' },
		{ "duration",		required_argument, NULL, 'd' },
		{ "progress",		required_argument, NULL, 'p' },
		{ "clock-bound-us",	required_argument, NULL, 'b' },
		{ "require-nested",	no_argument,	   NULL, 'n' },
		{ "filter-seq-mask",	required_argument, NULL, 'F' },
		{ "ktap",		required_argument, NULL, 'k' },
		{ "save-raw",		required_argument, NULL, 's' },
		{ "max",		required_argument, NULL, 'm' },
		{ "cpu",		required_argument, NULL, 'c' },
		{ "reader",		required_argument, NULL, 'R' },
		{ "stop-on-fail",	no_argument,	   NULL, 'f' },
		{ "keep-failing",	required_argument, NULL, 'K' },
		{ "json",		required_argument, NULL, 'j' },
		{ "quiet-ms",		required_argument, NULL, 'q' },
		{ "trace-clock",	required_argument, NULL, 'C' },
		{ "override-clock",	required_argument, NULL, 'O' },
		{ "mapped",		no_argument,	   NULL, 'M' },
		{ "help",		no_argument,	   NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct rb_live_opts lo = { .duration = 10, .quiet_ms = RB_CAPTURE_QUIET_MS };
	struct rb_settings set;
	struct rb_input in = { .expect_clock = -1 };
	const char *cmd;
	struct rb_stacks *stacks = NULL;
	int max_stacks = 10;
	struct rb_dump *dump = NULL;
	double d;
	int c, ret;

	rb_settings_default(&set);
	if (argc < 2)
		return bad_usage("%s", "no command given");
	cmd = argv[1];
	if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help")) {
		usage(stdout);
		return EXIT_PASS;
	}
	if (strcmp(cmd, "live") && strcmp(cmd, "verify") && strcmp(cmd, "stacks") &&
	    strcmp(cmd, "dump")) {
		struct stat st;

		/* rbcheck trace.dat: what was meant is plain */
		if (stat(cmd, &st) == 0)
			return bad_usage("'%s' is a file, not a command: rbcheck verify FILE checks it", cmd);
		return bad_usage("unknown command '%s'", cmd);
	}

	optind = 2;
	opterr = 0;	/* one line of our own instead of getopt's */
	while ((c = getopt_long(argc, argv, ":i:d:p:s:m:c:R:fK:b:nF:k:j:q:C:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'i':
			lo.instance = optarg;
			break;
		case 'd':
			if (parse_num(optarg, 0, 1e7, &lo.duration))
				return bad_usage("--duration '%s': not a number of seconds", optarg);
			break;
		case 'p':
			if (parse_num(optarg, 0, 1e7, &lo.progress))
				return bad_usage("--progress '%s': not a number of seconds", optarg);
			break;
		case 'q':
			if (parse_num(optarg, 0, RB_CAPTURE_QUIET_MAX_MS, &d) || d != (int)d)
				return bad_usage("--quiet-ms '%s': a number of milliseconds, 0 to 10000",
						 optarg);
			lo.quiet_ms = (int)d;
			break;
		case 'b':
			if (parse_num(optarg, 0, 1e9, &d))
				return bad_usage("--clock-bound-us '%s': not a number of microseconds", optarg);
			set.clock_bound_ns = (unsigned long long)(d * 1000);
			break;
		case 'n':
			set.require_nested = true;
			break;
		case 'F':
			if (parse_num(optarg, 1, 65535, &d) || d != (int)d)
				return bad_usage("--filter-seq-mask '%s': a mask of 1 to 65535", optarg);
			set.filter_seq_mask = (uint64_t)d;
			break;
		case 'k':
			ktap_file = optarg;
			break;
		case 's':
			save_dir = optarg;
			break;
		case 'f':
			lo.stop_on_fail = true;
			break;
		case 'K':
			lo.keep_failing = optarg;
			break;
		case 'R':
			if (!strcmp(optarg, "libtracecmd"))
				use_libtracecmd = true;
			else if (strcmp(optarg, "auto"))
				return bad_usage("--reader '%s': auto or libtracecmd", optarg);
			break;
		case 'c':
			if (parse_num(optarg, 0, RB_MAX_CPUS - 1, &d) || d != (int)d)
				return bad_usage("--cpu '%s': not a CPU number", optarg);
			dump_cpu = (int)d;
			break;
		case 'm':
			if (parse_num(optarg, 0, 1e6, &d))
				return bad_usage("--max '%s': not a number", optarg);
			max_stacks = (int)d;
			break;
		case 'j':
			json_file = optarg;
			break;
		case 'C':
		case 'O':
			if (!rb_trace_clock_known(optarg)) {
				fprintf(stderr, "%s: --%s '%s': not a trace clock (%s) (see '%s --help')\n",
					argv0, c == 'C' ? "trace-clock" : "override-clock", optarg,
					rb_trace_clock_list(), argv0);
				return EXIT_USAGE;
			}
			*(c == 'C' ? &trace_clock : &override_clock) = optarg;
			break;
		case 'M':
			in.mapped = true;
			break;
		case 'h':
			usage(stdout);
			return EXIT_PASS;
		case ':':
			return bad_usage("option '%s' needs a value", argv[optind - 1]);
		default:
			return bad_usage("unknown option '%s'", argv[optind - 1]);
		}
	}

	if (ktap_file && json_file && !strcmp(ktap_file, "-") && !strcmp(json_file, "-"))
		return bad_usage("%s", "--ktap - and --json - cannot both go to stdout");
	if (strcmp(cmd, "live") && optind != argc - 1)
		return bad_usage("%s takes exactly one TRACE.DAT or RAW-DIR", cmd);
	if (save_dir && strcmp(cmd, "live"))
		return bad_usage("%s", "--save-raw is an option of live");
	if (trace_clock && strcmp(cmd, "verify"))
		return bad_usage("%s", "--trace-clock is an option of verify");
	if (override_clock && strcmp(cmd, "verify"))
		return bad_usage("%s", "--override-clock is an option of verify");
	if (override_clock && trace_clock)
		return bad_usage("%s", "--trace-clock and --override-clock: give one");
	if (in.mapped && !strcmp(cmd, "live"))
		return bad_usage("%s", "--mapped is an option of verify, stacks and dump");
	if (!strcmp(cmd, "live") && optind != argc)
		return bad_usage("live takes no file ('%s')", argv[optind]);

	in.v = rb_verifier_new(&set);
	if (!in.v) {
		fprintf(stderr, "%s: out of memory\n", argv0);
		return EXIT_USAGE;
	}
	/* stacks and dump watch the events go by; the verdict is one line */
	if (!strcmp(cmd, "stacks")) {
		stacks = rb_stacks_new(stdout, max_stacks);
		in.on_event = rb_stacks_event;
		in.on_event_arg = stacks;
	} else if (!strcmp(cmd, "dump")) {
		dump = rb_dump_new(stdout, dump_cpu);
		in.on_event = rb_dump_event;
		in.on_event_arg = dump;
	}
	if (in.on_event) {
		verdict_line_only = true;
		if (!in.on_event_arg) {
			fprintf(stderr, "%s: out of memory\n", argv0);
			rb_verifier_free(in.v);
			return EXIT_USAGE;
		}
	}
	if (!strcmp(cmd, "live"))
		ret = cmd_live(&in, &lo);
	else
		ret = cmd_verify(&in, argv[optind]);
	rb_stacks_free(stacks);
	rb_dump_free(dump);
	rb_verifier_free(in.v);
	return ret;
}
