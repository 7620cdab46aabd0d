// SPDX-License-Identifier: GPL-2.0
/*
 * Offline reader: a trace.dat written by `trace-cmd record`.  libtracecmd
 * reads its headers and formats; the per-CPU data is streamed by
 * rb_flyrecord.c (versions 6 and 7, plain or zstd), anything else read
 * through libtracecmd, after rb_flyrecord.c has checked every sub-buffer
 * it can reach (kbuffer, under libtracecmd, trusts each commit word).
 * Each CPU is read on its own, in the order its buffer held the events.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <trace-cmd.h>

#include "rb_flyrecord.h"
#include "rb_tracedat.h"

static bool data_failed;

struct tracecmd_input *rb_tracedat_open(const char *path, struct rb_input *in,
					struct rb_tracedat_layout *lay, char *err, size_t errlen)
{
	struct tracecmd_input *handle;
	int ret;

	/*
	 * Say what is wrong before libtracecmd gets a chance to guess: it
	 * trusts every offset and size in the file (a cut header makes it
	 * free twice, a page size of 0 divide by zero).
	 */
	if (rb_tracedat_check(path, lay, err, errlen) < 0) {
		char why[512];

		snprintf(why, sizeof(why), "%s", err);
		snprintf(err, errlen, "%s: %s", path, why);
		return NULL;
	}

	/* Our one line says what is wrong; the libraries' own would be more. */
	tracecmd_set_loglevel(TEP_LOG_NONE);
	tep_set_loglevel(TEP_LOG_NONE);
	/*
	 * Headers and formats only: libtracecmd loads the CPU data at
	 * tracecmd_init_data(), and crashes on a damaged zstd chunk there.
	 * The streamed reader does not need it at all.
	 */
	handle = tracecmd_open_head(path, TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!handle) {
		/* its layout adds up: something inside a section does not */
		snprintf(err, errlen, "%s: trace-cmd cannot read its headers or formats (corrupt)", path);
		return NULL;
	}
	ret = rb_format_init(&in->fmt, tracecmd_get_tep(handle), err, errlen);
	if (ret < 0 && !(ret == RB_FORMAT_ABSENT && in->g)) {
		size_t n = strlen(err);

		snprintf(err + n, errlen - n, " in %s", path);
		tracecmd_close(handle);
		return NULL;
	}
	return handle;
}

int rb_tracedat_read(struct tracecmd_input *handle, const char *path,
		     const struct rb_tracedat_layout *lay, bool stream, struct rb_input *in)
{
	int ncpus;

	if (stream) {
		int ret = rb_flyrecord_read(path, lay, tracecmd_get_tep(handle), in, false);

		if (ret)
			return ret < 0 ? -1 : 0;
	} else if (rb_flyrecord_read(path, lay, tracecmd_get_tep(handle), in, true) < 0) {
		return -1;
	}
	if (tracecmd_init_data(handle) < 0) {
		data_failed = true;
		snprintf(in->err, sizeof(in->err), "trace-cmd cannot read its CPU data (truncated or corrupt)");
		return -1;
	}
	ncpus = tep_get_cpus(tracecmd_get_tep(handle));

	for (int cpu = 0; cpu < ncpus && cpu < RB_MAX_CPUS; cpu++) {
		struct tep_record *rec;

		while ((rec = tracecmd_read_data(handle, cpu))) {
			struct rb_pos pos = { .subbuf = -1, .offset = rec->offset };
			int ret;

			if (rec->missed_events)
				rb_verify_lost(in->v, cpu, rec->missed_events);
			ret = rb_input_record(in, rec, &pos);
			tracecmd_free_record(rec);
			if (ret < 0)
				return -1;
		}
	}
	return 0;
}

void rb_tracedat_close(struct tracecmd_input *handle)
{
	/*
	 * libtracecmd 1.3 crashes closing a handle whose CPU data failed to
	 * load (a damaged zstd chunk); we are about to exit: leave it.
	 */
	if (!data_failed)
		tracecmd_close(handle);
}
