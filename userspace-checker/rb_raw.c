// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <kbuffer.h>
#include <tracefs.h>

#include "rb_raw.h"
#include "rb_raw_format.h"
#include "rb_subbuf.h"
#include "rb_trace_clocks.h"

int rb_raw_is_capture(const char *path)
{
	char meta[4200];
	struct stat st;

	snprintf(meta, sizeof(meta), "%s/meta", path);
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode) && access(meta, R_OK) == 0;
}

static char *read_file(const char *dir, const char *name, size_t *len)
{
	char path[4200];
	char *buf = NULL;
	size_t cap = 0, n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	if (!f)
		return NULL;
	for (;;) {
		if (n + 4096 + 1 > cap) {
			char *nb = realloc(buf, cap = cap * 2 + 8192);

			if (!nb) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = nb;
		}
		size_t r = fread(buf + n, 1, 4096, f);

		n += r;
		if (r < 4096)
			break;
	}
	fclose(f);
	buf[n] = '\0';
	*len = n;
	return buf;
}

/* The number after "@key " at the start of a line of meta; 0 if there is none. */
static int meta_u64(const char *meta, const char *key, uint64_t *v)
{
	size_t klen = strlen(key);

	for (const char *l = meta; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		unsigned long long n;
		char *end;

		if (strncmp(l, key, klen) || l[klen] != ' ')
			continue;
		errno = 0;
		n = strtoull(l + klen + 1, &end, 10);
		if (errno || end == l + klen + 1 || (*end && *end != '\n'))
			return -1;
		*v = n;
		return 1;
	}
	return 0;
}

/*
 * What a complete capture holds, from meta: the CPU count (written when
 * the capture starts) and each CPU's bytes (written when it ends).  A
 * capture from before these were recorded has neither: read, with a note.
 */
struct raw_sizes {
	int		ncpus;		/* 0: not recorded */
	bool		stream;		/* the bytes are stream records' */
	uint64_t	bytes[RB_MAX_CPUS];
	uint64_t	seen[RB_MAX_CPUS];	/* stream: bytes of records read */
};

static int raw_read_sizes(const char *dir, const char *meta, struct raw_sizes *s,
			  struct rb_input *in, char *err, size_t errlen)
{
	uint64_t n, unused;
	char key[32];
	int r;

	memset(s, 0, sizeof(*s));
	r = meta_u64(meta, "cpus", &n);
	if (r < 0 || (r && (n < 1 || n > RB_MAX_CPUS))) {
		snprintf(err, errlen, "%s/meta: 'cpus' is not a CPU count from 1 to %d", dir,
			 RB_MAX_CPUS);
		return -1;
	}
	if (!r) {
		snprintf(in->note, sizeof(in->note), "%s/meta has no CPU count (a capture from "
			 "before it was recorded): whether every CPU's sub-buffers are here "
			 "was not checked", dir);
		return 0;
	}
	s->ncpus = n;
	s->stream = meta_u64(meta, "stream_bytes", &unused) > 0;
	for (int cpu = 0; cpu < s->ncpus; cpu++) {
		snprintf(key, sizeof(key), "cpu%d_bytes", cpu);
		r = meta_u64(meta, key, &s->bytes[cpu]);
		if (r <= 0) {
			snprintf(err, errlen, "%s/meta: %s, with %d CPU(s), has no %s%s", dir,
				 r < 0 ? "a bad number" : "not finished",
				 s->ncpus, key, r < 0 ? "" : " (its writer stopped before the end)");
			return -1;
		}
	}
	return 0;
}

/* Each cpuN.raw has the bytes meta says, and there is none for a CPU it does not name. */
static int raw_check_files(const char *dir, const struct raw_sizes *s, char *err, size_t errlen)
{
	for (int cpu = 0; cpu < RB_MAX_CPUS; cpu++) {
		char path[4200];
		struct stat st;
		bool have;

		snprintf(path, sizeof(path), "%s/cpu%d.raw", dir, cpu);
		have = stat(path, &st) == 0;
		if (have && cpu >= s->ncpus) {
			snprintf(err, errlen, "%s: extra: meta says %d CPU(s)", path, s->ncpus);
			return -1;
		}
		if (cpu >= s->ncpus)
			continue;
		if (!have && s->bytes[cpu]) {
			snprintf(err, errlen, "%s: missing: meta says it has %llu bytes", path,
				 (unsigned long long)s->bytes[cpu]);
			return -1;
		}
		if (have && (uint64_t)st.st_size != s->bytes[cpu]) {
			snprintf(err, errlen, "%s: %s: %llu bytes, meta says %llu", path,
				 (uint64_t)st.st_size < s->bytes[cpu] ? "truncated" : "too long",
				 (unsigned long long)st.st_size, (unsigned long long)s->bytes[cpu]);
			return -1;
		}
	}
	return 0;
}

/* One CPU's file, sub-buffer after sub-buffer. */
static int raw_read_cpu(const char *dir, int cpu, int fd, struct kbuffer *kbuf,
			const struct rb_subbuf_layout *l, struct rb_input *in,
			char *err, size_t errlen)
{
	int psize = l->psize;
	char *page = malloc(psize);
	int64_t subbuf = 0;
	ssize_t r;
	int ret = 0;

	if (!page) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (;;) {
		uint32_t len;

		r = read(fd, &len, sizeof(len));
		if (r == 0)
			break;
		if (r == sizeof(len) && (len < 8 + (uint32_t)l->long_size || len > (uint32_t)psize)) {
			snprintf(err, errlen, "%s/cpu%d.raw: sub-buffer %lld: record length %u is not "
				 "a sub-buffer (%d bytes at most)", dir, cpu, (long long)subbuf, len, psize);
			ret = -1;
			break;
		}
		memset(page, 0, psize);
		if (r == sizeof(len))
			r = read(fd, page, len);
		if (r >= 0 && r != (ssize_t)len) {
			snprintf(err, errlen, "%s/cpu%d.raw: truncated: sub-buffer %lld is cut short",
				 dir, cpu, (long long)subbuf);
			ret = -1;
			break;
		}
		if (r < 0)
			break;
		in->subbufs++;
		if (rb_subbuf_feed(in, kbuf, page, l, cpu, subbuf++) < 0) {
			snprintf(err, errlen, "%s: %s", dir, in->err);
			ret = -1;
			break;
		}
	}
	if (r < 0) {
		snprintf(err, errlen, "%s/cpu%d.raw: %s", dir, cpu, strerror(errno));
		ret = -1;
	}
	free(page);
	return ret;
}

/*
 * rbdrain --stream: every CPU's sub-buffers in one file, in the order they
 * were read: records of u32 cpu, u32 length, the bytes; a record of cpu
 * 0xffffffff ends it.  Each CPU's records are fed in their order, as the
 * live checker feeds them, round after round.
 */
static int raw_read_stream(const char *dir, int fd, struct kbuffer *kbuf,
			   const struct rb_subbuf_layout *l, struct rb_input *in, int *ncpus,
			   struct raw_sizes *s, char *err, size_t errlen)
{
	int64_t subbuf[RB_MAX_CPUS] = { 0 };
	char *page = malloc(l->psize);
	uint64_t off = 0;
	int ret = -1;

	if (!page) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (;;) {
		uint32_t head[2];
		ssize_t r = read(fd, head, sizeof(head));

		if (r < 0) {
			snprintf(err, errlen, "%s/stream.raw: %s", dir, strerror(errno));
			break;
		}
		if (r != sizeof(head)) {
			snprintf(err, errlen, "%s/stream.raw: truncated at byte %llu: no end record",
				 dir, (unsigned long long)off);
			break;
		}
		if (head[0] == RB_RAW_STREAM_END) {
			ret = 0;
			break;
		}
		if (head[0] >= RB_MAX_CPUS || head[1] < 8 + (uint32_t)l->long_size ||
		    head[1] > (uint32_t)l->psize) {
			snprintf(err, errlen, "%s/stream.raw: byte %llu: not a record (cpu %u, length %u; "
				 "sub-buffers are %d bytes at most)", dir, (unsigned long long)off,
				 head[0], head[1], l->psize);
			break;
		}
		if (s->ncpus && head[0] >= (uint32_t)s->ncpus) {
			snprintf(err, errlen, "%s/stream.raw: byte %llu: a record of cpu%u, but meta "
				 "says %d CPU(s)", dir, (unsigned long long)off, head[0], s->ncpus);
			break;
		}
		memset(page, 0, l->psize);
		r = read(fd, page, head[1]);
		if (r != (ssize_t)head[1]) {
			snprintf(err, errlen, "%s/stream.raw: truncated: the record at byte %llu is cut short",
				 dir, (unsigned long long)off);
			break;
		}
		off += sizeof(head) + head[1];
		s->seen[head[0]] += sizeof(head) + head[1];
		if (head[0] + 1 > (uint32_t)*ncpus)
			*ncpus = head[0] + 1;
		in->subbufs++;
		if (rb_subbuf_feed(in, kbuf, page, l, head[0], subbuf[head[0]]++) < 0) {
			snprintf(err, errlen, "%s: %s", dir, in->err);
			break;
		}
	}
	free(page);
	for (int cpu = 0; !ret && cpu < s->ncpus; cpu++)
		if (s->seen[cpu] != s->bytes[cpu]) {
			snprintf(err, errlen, "%s/stream.raw: cpu%d's records hold %llu bytes, meta says "
				 "%llu", dir, cpu, (unsigned long long)s->seen[cpu],
				 (unsigned long long)s->bytes[cpu]);
			ret = -1;
		}
	return ret;
}

/*
 * The kernel's path counters, if the capture has them (rbdrain keeps each
 * CPU's per_cpu/cpuN/stats from the start and the end of its run): the
 * difference, as the live checker computes it.
 */
static void raw_read_counters(const char *dir, struct rb_path_counters *k)
{
	struct rb_path_counters before;
	char name[64];

	memset(&before, 0, sizeof(before));
	for (int cpu = 0; cpu < RB_MAX_CPUS; cpu++) {
		char *text;
		size_t len;

		snprintf(name, sizeof(name), "cpu%d.stats-after", cpu);
		text = read_file(dir, name, &len);
		if (!text)
			continue;
		k->have |= rb_counters_parse(text, k->v[cpu]);
		k->nr_cpus = cpu + 1;
		k->dropped[cpu] = rb_counters_dropped(text);
		k->entries_left[cpu] = rb_stats_value(text, "entries");
		k->have_left = true;
		free(text);
		snprintf(name, sizeof(name), "cpu%d.stats-before", cpu);
		text = read_file(dir, name, &len);
		if (text && rb_counters_parse(text, before.v[cpu]) > 0)
			before.nr_cpus = cpu + 1;
		if (text) {
			before.dropped[cpu] = rb_counters_dropped(text);
			before.untouched[cpu] = rb_stats_untouched(text);
		}
		free(text);
	}
	if (k->have)
		rb_counters_sub(k, &before);
}

struct rb_raw {
	const char		*dir;
	char			*meta, *header, *format;
	struct tep_handle	*tep;	/* in->fmt points into it */
	struct rb_subbuf_layout	layout;
	struct raw_sizes	sizes;
	char			clock[32];
};

/* The word after "@key " at the start of a line of meta; 0 if there is none. */
static int meta_word(const char *meta, const char *key, char *word, size_t len)
{
	size_t klen = strlen(key);

	for (const char *l = meta; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		size_t n;

		if (strncmp(l, key, klen) || l[klen] != ' ')
			continue;
		n = strcspn(l + klen + 1, "\n");
		if (!n || n >= len)
			return -1;
		snprintf(word, len, "%.*s", (int)n, l + klen + 1);
		return 1;
	}
	return 0;
}

/*
 * The trace clock meta says the capture was recorded with: "" where it
 * does not say (a capture from before it was recorded, or one whose
 * clock was switched while capturing, with a note).
 */
static int raw_read_clock(struct rb_raw *r, struct rb_input *in, char *err, size_t errlen)
{
	uint64_t switched = 0;
	int ret = meta_word(r->meta, "trace_clock", r->clock, sizeof(r->clock));

	if (ret < 0 || (ret && !rb_trace_clock_known(r->clock))) {
		snprintf(err, errlen, "%s/meta: trace_clock '%s' is not one of the kernel's trace "
			 "clocks (%s)", r->dir, ret < 0 ? "" : r->clock, rb_trace_clock_list());
		return -1;
	}
	if (!ret)
		r->clock[0] = '\0';
	if (meta_u64(r->meta, "trace_clock_switched", &switched) > 0 && switched) {
		snprintf(in->note, sizeof(in->note), "%s/meta: the trace clock was switched while "
			 "capturing (from '%s'): no one clock stamped all of it", r->dir, r->clock);
		r->clock[0] = '\0';
	}
	return 0;
}

void rb_raw_close(struct rb_raw *r)
{
	if (!r)
		return;
	free(r->meta);
	free(r->header);
	free(r->format);
	/* in->fmt points into tep; the verifier no longer needs it. */
	if (r->tep)
		tep_free(r->tep);
	free(r);
}

struct rb_raw *rb_raw_open(const char *dir, struct rb_input *in, char *err, size_t errlen)
{
	struct rb_raw *r = calloc(1, sizeof(*r));
	int psize = 0, lsize = 0;
	size_t mlen, hlen, flen;
	char endian[16] = "";
	const char *p;

	if (!r) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	r->dir = dir;
	r->tep = tep_alloc();
	r->meta = read_file(dir, "meta", &mlen);
	r->header = read_file(dir, "header_page", &hlen);
	r->format = read_file(dir, "format", &flen);
	if (!r->tep || !r->meta || !r->header || !r->format) {
		snprintf(err, errlen, "%s: not a complete raw capture (meta, header_page, format)", dir);
		goto fail;
	}
	if (strncmp(r->meta, RB_RAW_MAGIC "\n", strlen(RB_RAW_MAGIC) + 1) ||
	    !(p = strstr(r->meta, "page_size ")) || sscanf(p, "page_size %d", &psize) != 1 ||
	    !(p = strstr(r->meta, "long_size ")) || sscanf(p, "long_size %d", &lsize) != 1 ||
	    !(p = strstr(r->meta, "endian ")) || sscanf(p, "endian %15s", endian) != 1 ||
	    psize < 64 || psize > (1 << 20) || (lsize != 4 && lsize != 8) ||
	    (strcmp(endian, "little") && strcmp(endian, "big"))) {
		snprintf(err, errlen, "%s/meta: not an %s file with page_size, long_size (4 or 8) "
			 "and endian", dir, RB_RAW_MAGIC);
		goto fail;
	}
	if (raw_read_sizes(dir, r->meta, &r->sizes, in, err, errlen) < 0 ||
	    (r->sizes.ncpus && !r->sizes.stream && raw_check_files(dir, &r->sizes, err, errlen) < 0) ||
	    raw_read_clock(r, in, err, errlen) < 0)
		goto fail;
	tep_set_long_size(r->tep, lsize);
	tep_set_page_size(r->tep, psize);
	tep_set_file_bigendian(r->tep, strcmp(endian, "big") ? TEP_LITTLE_ENDIAN : TEP_BIG_ENDIAN);
	if (tep_parse_header_page(r->tep, r->header, hlen, lsize) < 0 ||
	    tep_parse_event(r->tep, r->format, flen, "rbstress") != 0) {
		snprintf(err, errlen, "%s: header_page or format does not parse", dir);
		goto fail;
	}
	if (rb_format_init(&in->fmt, r->tep, err, errlen) < 0) {
		char why[256];

		snprintf(why, sizeof(why), "%s", err);
		snprintf(err, errlen, "%s/format: %s", dir, why);
		goto fail;
	}
	r->layout.psize = psize;
	r->layout.long_size = lsize;
	r->layout.big_endian = !strcmp(endian, "big");
	return r;
fail:
	rb_raw_close(r);
	return NULL;
}

const char *rb_raw_clock(const struct rb_raw *r)
{
	return r->clock;
}

int rb_raw_read(struct rb_raw *r, struct rb_input *in, char *err, size_t errlen)
{
	const char *dir = r->dir;
	struct kbuffer *kbuf;
	int ret = -1, ncpus = 0;

	kbuf = kbuffer_alloc(r->layout.long_size == 8 ? KBUFFER_LSIZE_8 : KBUFFER_LSIZE_4,
			     r->layout.big_endian ? KBUFFER_ENDIAN_BIG : KBUFFER_ENDIAN_LITTLE);
	if (!kbuf) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}

	for (int cpu = 0; cpu < RB_MAX_CPUS; cpu++) {
		char path[4200];
		int fd;

		snprintf(path, sizeof(path), "%s/cpu%d.raw", dir, cpu);
		fd = open(path, O_RDONLY);
		if (fd < 0)
			continue;	/* a CPU that recorded nothing */
		ncpus++;
		ret = raw_read_cpu(dir, cpu, fd, kbuf, &r->layout, in, err, errlen);
		close(fd);
		if (ret < 0)
			goto out;
	}
	if (!ncpus) {
		char path[4200];
		int fd;

		snprintf(path, sizeof(path), "%s/stream.raw", dir);
		fd = open(path, O_RDONLY);
		if (fd >= 0) {
			ret = raw_read_stream(dir, fd, kbuf, &r->layout, in, &ncpus, &r->sizes,
					      err, errlen);
			close(fd);
			if (ret < 0)
				goto out;
			if (!ncpus)
				ncpus = -1;	/* a stream that ended before any record */
		}
	}
	ret = 0;
	raw_read_counters(dir, &in->counters);
	in->counters.rb_time_32 = in->counters.have && r->layout.long_size == 4;
	if (!ncpus) {
		snprintf(err, errlen, "%s: no cpuN.raw or stream.raw file", dir);
		ret = -1;
	}
out:
	kbuffer_free(kbuf);
	return ret;
}
