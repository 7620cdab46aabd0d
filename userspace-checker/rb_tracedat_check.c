// SPDX-License-Identifier: GPL-2.0
/*
 * Check a trace.dat before any library reads it.
 *
 * libtracecmd trusts the file: a header cut short makes it free twice, a
 * page size of 0 divides by zero, 0xffffffff allocates 4 GiB, and a file
 * cut inside its trailing options still reads as complete.  So rbcheck
 * walks the file's layout itself first, with sizes only (no allocation
 * the file controls), and refuses what does not add up with one line:
 * what is wrong and at which offset.
 *
 * Version 6: the header, then header_page, header_event, the ftrace and
 * the systems' event formats, kallsyms, printk, the command lines, the
 * CPU count, the options, and "flyrecord" with each CPU's offset and size.
 * Version 7: the header, then a chain of sections from the offset after
 * the compression's name and version; each section is [id 2][flags 2]
 * [string id 4][size 8][size bytes], and the options sections chain on by
 * their DONE option.  Every offset and size must lie inside the file.
 *
 * On the way it notes the trace clock the file says it was recorded with
 * (version 7: the top-level buffer's BUFFER option; else the TRACECLOCK
 * option's bracketed name), so that both readers judge by the same one.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rb_trace_clocks.h"
#include "rb_tracedat_check.h"

#define V7_OPT_DONE		0
#define OPT_TRACECLOCK		4
#define OPT_BUFFER		3
#define V7_SEC_FL_COMPRESS	1
#define MAX_SECTIONS		4096
#define MAX_FORMATS		100000

struct dat {
	int		fd;
	uint64_t	size;		/* of the file */
	bool		big_endian;
	int64_t		max_string;	/* the highest string id a section names */
	char		buffer_clock[32];	/* the top-level BUFFER option's */
	char		listed_clock[32];	/* TRACECLOCK's "[name]" */
	struct rb_tracedat_layout *lay;
	char		*err;
	size_t		errlen;
};

static int bad(struct dat *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int bad(struct dat *d, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(d->err, d->errlen, fmt, ap);
	va_end(ap);
	return -1;
}

/* @len bytes at @off, all of them inside the file, or -1 saying where */
static int get(struct dat *d, void *buf, size_t len, uint64_t off, const char *what)
{
	size_t got = 0;

	if (off > d->size || len > d->size - off)
		return bad(d, "truncated: %s at offset %" PRIu64 " needs %zu bytes, the file ends at %" PRIu64,
			   what, off, len, d->size);
	while (got < len) {
		ssize_t r = pread(d->fd, (char *)buf + got, len - got, off + got);

		if (r < 0)
			return bad(d, "read at offset %" PRIu64 ": %s", off + got, strerror(errno));
		if (r == 0)
			return bad(d, "truncated: %s at offset %" PRIu64, what, off + got);
		got += r;
	}
	return 0;
}

static uint64_t num(struct dat *d, const unsigned char *p, int size)
{
	uint64_t v = 0;

	for (int i = 0; i < size; i++)
		v |= (uint64_t)p[d->big_endian ? size - 1 - i : i] << (8 * i);
	return v;
}

static int get_num(struct dat *d, uint64_t *v, int size, uint64_t off, const char *what)
{
	unsigned char b[8];

	if (get(d, b, size, off, what) < 0)
		return -1;
	*v = num(d, b, size);
	return 0;
}

/* A NUL-terminated string at @off of at most @max bytes; its length + 1 */
static int64_t string_at(struct dat *d, uint64_t off, size_t max, char *out, size_t outlen,
			 const char *what)
{
	char buf[256];
	size_t n = max < sizeof(buf) ? max : sizeof(buf);
	char *z;

	if (off >= d->size)
		return bad(d, "truncated: %s at offset %" PRIu64 ", the file ends at %" PRIu64,
			   what, off, d->size);
	if (n > d->size - off)
		n = d->size - off;
	if (get(d, buf, n, off, what) < 0)
		return -1;
	z = memchr(buf, 0, n);
	if (!z && off + n == d->size && n < max)
		return bad(d, "truncated: %s at offset %" PRIu64 ", the file ends at %" PRIu64
			   " before its end", what, off, d->size);
	if (!z)
		return bad(d, "%s at offset %" PRIu64 " is not a string of at most %zu bytes",
			   what, off, max);
	if (out) {
		size_t k = (size_t)(z - buf) < outlen - 1 ? (size_t)(z - buf) : outlen - 1;

		memcpy(out, buf, k);
		out[k] = 0;
	}
	return z - buf + 1;
}

/* A block of [size (@width bytes)][size bytes]; the offset after it */
static int skip_block(struct dat *d, uint64_t *off, int width, const char *what)
{
	uint64_t n;

	if (get_num(d, &n, width, *off, what) < 0)
		return -1;
	*off += width;
	if (n > d->size - *off)
		return bad(d, "truncated: %s at offset %" PRIu64 " claims %" PRIu64
			   " bytes, the file ends at %" PRIu64, what, *off - width, n, d->size);
	*off += n;
	return 0;
}

/* A trace clock's name is a word: anything else is not one. */
static int clock_name(struct dat *d, char *out, size_t outlen, const char *name, uint64_t at)
{
	size_t n = strlen(name);

	if (!n || n >= outlen || strspn(name, "abcdefghijklmnopqrstuvwxyz"
					"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") != n)
		return bad(d, "offset %" PRIu64 ": the trace clock '%.40s' is not a clock's name",
			   at, name);
	memcpy(out, name, n + 1);
	return 0;
}

/*
 * The TRACECLOCK option: the trace_clock file as it was, "local [global]
 * counter ...": the bracketed one was in use.
 */
static int listed_clock(struct dat *d, uint64_t at, uint64_t len)
{
	char buf[512], name[256];

	if (len >= sizeof(buf))
		len = sizeof(buf) - 1;
	if (get(d, buf, len, at, "the TRACECLOCK option") < 0)
		return -1;
	buf[len] = 0;
	if (!rb_trace_clock_selected(buf, name, sizeof(name)))
		return 0;	/* no clock marked: the file does not say */
	return clock_name(d, d->listed_clock, sizeof(d->listed_clock), name, at);
}

/* A 4-byte count of WHAT at *@off, of at most MAX_FORMATS; *@off after it */
static int count_at(struct dat *d, uint64_t *off, uint64_t *n, const char *what)
{
	char name[64];

	snprintf(name, sizeof(name), "the count of %s", what);
	if (get_num(d, n, 4, *off, name) < 0)
		return -1;
	*off += 4;
	if (*n > MAX_FORMATS)
		return bad(d, "offset %" PRIu64 ": %" PRIu64 " %s", *off - 4, *n, what);
	return 0;
}

/* @n blocks of [size 8][size bytes] from *@off */
static int skip_blocks(struct dat *d, uint64_t *off, uint64_t n, const char *what)
{
	for (uint64_t i = 0; i < n; i++)
		if (skip_block(d, off, 8, what) < 0)
			return -1;
	return 0;
}

static int check_v6(struct dat *d, uint64_t off)
{
	static const char *const heads[] = { "header_page", "header_event" };
	char word[16];
	uint64_t n, cpus, m;
	int64_t len;

	for (int i = 0; i < 2; i++) {
		len = string_at(d, off, 16, word, sizeof(word), heads[i]);
		if (len < 0)
			return -1;
		if (strcmp(word, heads[i]))
			return bad(d, "offset %" PRIu64 ": '%s' where %s should be", off, word, heads[i]);
		off += len;
		if (skip_block(d, &off, 8, heads[i]) < 0)
			return -1;
	}
	if (count_at(d, &off, &n, "ftrace event formats") < 0 ||
	    skip_blocks(d, &off, n, "an ftrace event format") < 0 ||
	    count_at(d, &off, &n, "event systems") < 0)
		return -1;
	for (uint64_t i = 0; i < n; i++) {
		len = string_at(d, off, 256, NULL, 0, "an event system's name");
		if (len < 0)
			return -1;
		off += len;
		if (count_at(d, &off, &m, "events of a system") < 0 ||
		    skip_blocks(d, &off, m, "an event format") < 0)
			return -1;
	}
	if (skip_block(d, &off, 4, "kallsyms") < 0 || skip_block(d, &off, 4, "printk formats") < 0 ||
	    skip_block(d, &off, 8, "the command lines") < 0)
		return -1;
	if (get_num(d, &cpus, 4, off, "the CPU count") < 0)
		return -1;
	off += 4;
	if (!cpus || cpus > 4096)
		return bad(d, "offset %" PRIu64 ": a CPU count of %" PRIu64, off - 4, cpus);
	/* options, then the data's kind */
	for (int s = 0; s < MAX_SECTIONS; s++) {
		len = string_at(d, off, 10, word, sizeof(word), "the data's kind");
		if (len < 0)
			return -1;
		if (!strcmp(word, "options  ")) {
			off += len;
			for (int o = 0; o < MAX_SECTIONS; o++) {
				if (get_num(d, &n, 2, off, "an option") < 0)
					return -1;
				off += 2;
				if (!n)
					break;
				if (n == OPT_TRACECLOCK) {
					uint64_t len;

					if (get_num(d, &len, 4, off, "an option") < 0 ||
					    (len <= d->size - off - 4 && listed_clock(d, off + 4, len) < 0))
						return -1;
				}
				if (skip_block(d, &off, 4, "an option") < 0)
					return -1;
			}
			continue;
		}
		if (!strcmp(word, "latency  "))
			return 0;	/* text: nothing more to check */
		if (strcmp(word, "flyrecord"))
			return bad(d, "offset %" PRIu64 ": '%s' where options or flyrecord should be",
				   off, word);
		off += len;
		for (uint64_t c = 0; c < cpus; c++) {
			uint64_t at, size;

			if (get_num(d, &at, 8, off, "a CPU's data offset") < 0 ||
			    get_num(d, &size, 8, off + 8, "a CPU's data size") < 0)
				return -1;
			off += 16;
			if (at > d->size || size > d->size - at)
				return bad(d, "cpu%" PRIu64 ": truncated: its data is at offsets %" PRIu64
					   "-%" PRIu64 " but the file ends at %" PRIu64,
					   c, at, at + size, d->size);
			if (c < RB_MAX_CPUS) {
				d->lay->cpu[c].id = c;
				d->lay->cpu[c].offset = at;
				d->lay->cpu[c].size = size;
			}
		}
		/* our reader takes the CPUs it has room for; more: libtracecmd */
		if (cpus <= RB_MAX_CPUS)
			d->lay->ncpus = cpus;
		return 0;
	}
	return bad(d, "offset %" PRIu64 ": too many options sections", off);
}

/*
 * Version 7: the options chain from @off.  Every option that names a
 * section (header info, formats, kallsyms, printk, the command lines, a
 * CPU's data) is checked there; the DONE option gives the next options
 * section (0: the last).
 */
static int check_section(struct dat *d, uint64_t at, const char *what, uint64_t *size)
{
	unsigned char h[16];

	if (get(d, h, sizeof(h), at, what) < 0)
		return -1;
	if ((int64_t)num(d, h + 4, 4) > d->max_string)
		d->max_string = num(d, h + 4, 4);
	*size = num(d, h + 8, 8);
	if (*size > d->size - (at + 16))
		return bad(d, "truncated: %s at offset %" PRIu64 " claims %" PRIu64
			   " bytes, the file ends at %" PRIu64, what, at, *size, d->size);
	return 0;
}

/*
 * A BUFFER option: [section offset 8][name][clock][page size 4][cpus 4]
 * then [cpu 4][offset 8][size 8] for each CPU: every CPU's data inside
 * the file.  The top-level buffer's (an instance's has a name) is the one
 * rbcheck reads: its CPUs go to the layout.
 */
static int check_buffer(struct dat *d, uint64_t p, uint64_t len)
{
	struct rb_tracedat_layout *lay = d->lay;
	uint64_t end = p + len, q = p + 8, cpus, psize;
	char name[2][256];
	bool top;
	int64_t n;

	for (int i = 0; i < 2; i++) {
		n = string_at(d, q, end - q < 256 ? end - q : 256, name[i], sizeof(name[i]),
			      i ? "a buffer's clock" : "a buffer's name");
		if (n < 0)
			return -1;
		q += n;
	}
	top = !name[0][0] && lay->ncpus < 0;
	if (top && clock_name(d, d->buffer_clock, sizeof(d->buffer_clock), name[1], p) < 0)
		return -1;
	if (end - q < 8)
		return bad(d, "a BUFFER option at offset %" PRIu64 " ends before its CPUs", p);
	if (get_num(d, &psize, 4, q, "a buffer's page size") < 0 ||
	    get_num(d, &cpus, 4, q + 4, "a buffer's CPU count") < 0)
		return -1;
	q += 8;
	if (cpus > (end - q) / 20)
		return bad(d, "a BUFFER option at offset %" PRIu64 " claims %" PRIu64
			   " CPUs in %" PRIu64 " bytes", p, cpus, end - q);
	/* its pages are cut by the header's page size */
	if (top && (psize != lay->psize || cpus > RB_MAX_CPUS))
		return bad(d, "the top-level BUFFER option at offset %" PRIu64 ": page size %" PRIu64
			   " (the header says %" PRIu32 ") or %" PRIu64 " CPUs (at most %d)",
			   p, psize, lay->psize, cpus, RB_MAX_CPUS);
	for (uint64_t c = 0; c < cpus; c++, q += 20) {
		uint64_t id, at, size;

		if (get_num(d, &id, 4, q, "a CPU's id") < 0 ||
		    get_num(d, &at, 8, q + 4, "a CPU's data offset") < 0 ||
		    get_num(d, &size, 8, q + 12, "a CPU's data size") < 0)
			return -1;
		if (at > d->size || size > d->size - at)
			return bad(d, "cpu%" PRIu64 ": truncated: its data is at offsets %" PRIu64
				   "-%" PRIu64 " but the file ends at %" PRIu64, id, at, at + size, d->size);
		if (!top)
			continue;
		if (id >= RB_MAX_CPUS)
			return bad(d, "the top-level BUFFER option at offset %" PRIu64 ": CPU id %" PRIu64
				   " (at most %d)", p, id, RB_MAX_CPUS - 1);
		lay->cpu[c].id = id;
		lay->cpu[c].offset = at;
		lay->cpu[c].size = size;
	}
	if (top)
		lay->ncpus = cpus;
	return 0;
}

/*
 * After the last options section trace-cmd record writes the strings the
 * sections' headers name (id 15, STRINGS), up to the end of the file: a
 * file cut there still has all its data, but not its sections' names,
 * and libtracecmd reads it as whole.  Every section up to the end, none
 * cut, and every string id a section named inside them.
 *
 * trace-cmd restore writes no strings at all: its sections name ids that
 * nothing resolves.  The data is all there and libtracecmd reads it, so
 * a file that ends with its last options section is whole; one strings
 * section present means all of them must be.
 */
static int check_strings(struct dat *d, uint64_t off)
{
	uint64_t strings = 0, size;

	if (off >= d->size)
		return 0;
	while (off < d->size) {
		unsigned char h[16];

		if (check_section(d, off, "the strings section", &size) < 0 ||
		    get(d, h, sizeof(h), off, "the strings section") < 0)
			return -1;
		if (num(d, h, 2) != 15)
			return bad(d, "offset %" PRIu64 ": section %" PRIu64 " after the last options section, "
				   "where only strings should be", off, num(d, h, 2));
		if (num(d, h + 2, 2) & V7_SEC_FL_COMPRESS) {
			uint64_t raw;

			/* [compressed size 4][size 4][data] */
			if (size < 8 || get_num(d, &raw, 4, off + 20, "the strings' size") < 0)
				return bad(d, "offset %" PRIu64 ": a compressed strings section of %" PRIu64
					   " bytes", off, size);
			strings += raw;
		} else {
			strings += size;
		}
		off += 16 + size;
	}
	if (d->max_string >= 0 && (uint64_t)d->max_string >= strings)
		return bad(d, "truncated: the sections name string %" PRId64 " but the file ends at %" PRIu64
			   " with %" PRIu64 " bytes of strings", d->max_string, d->size, strings);
	return 0;
}

static int check_v7(struct dat *d, uint64_t off)
{
	uint64_t prev = 0, size, last_end = 0;
	int sections = 0;

	while (off) {
		uint64_t p, end, next = 0;
		unsigned char h[16];

		if (++sections > MAX_SECTIONS)
			return bad(d, "more than %d options sections", MAX_SECTIONS);
		if (off <= prev)
			return bad(d, "the options chain goes back from offset %" PRIu64 " to %" PRIu64,
				   prev, off);
		/* trace-cmd writes where each CPU's data lies after the data */
		if (off >= d->size)
			return bad(d, "truncated: the file ends at offset %" PRIu64 ", before the options "
				   "section at offset %" PRIu64 " that says where each CPU's data lies",
				   d->size, off);
		if (check_section(d, off, "an options section", &size) < 0)
			return -1;
		if (get(d, h, sizeof(h), off, "an options section") < 0)
			return -1;
		prev = off;
		p = off + 16;
		end = p + size;
		if (end > last_end)
			last_end = end;
		/* its size was checked; what it says, libtracecmd reads */
		if (num(d, h + 2, 2) & V7_SEC_FL_COMPRESS)
			return 0;
		while (p + 6 <= end) {
			uint64_t id, len;

			if (get_num(d, &id, 2, p, "an option's id") < 0 ||
			    get_num(d, &len, 4, p + 2, "an option's size") < 0)
				return -1;
			p += 6;
			if (len > end - p)
				return bad(d, "option %" PRIu64 " at offset %" PRIu64 " runs past its section",
					   id, p - 6);
			if (id == V7_OPT_DONE) {
				if (len >= 8 && get_num(d, &next, 8, p, "the next options section") < 0)
					return -1;
				break;
			}
			/* 16 header info, 17 ftrace formats, 18 event formats,
			 * 19 kallsyms, 20 printk, 21 cmdlines: an offset to a section */
			if (id >= 16 && id <= 21 && len >= 8) {
				uint64_t at;

				if (get_num(d, &at, 8, p, "a section's offset") < 0 ||
				    check_section(d, at, "a section the options name", &size) < 0)
					return -1;
			}
			if (id == OPT_BUFFER && check_buffer(d, p, len) < 0)
				return -1;
			if (id == OPT_TRACECLOCK && listed_clock(d, p, len) < 0)
				return -1;
			p += len;
		}
		off = next;
	}
	return check_strings(d, last_end);
}

int rb_tracedat_check(const char *path, struct rb_tracedat_layout *lay, char *err, size_t errlen)
{
	struct dat d = { .err = err, .errlen = errlen, .max_string = -1, .lay = lay };
	unsigned char head[32];
	char cver[64];
	struct stat st;
	uint32_t psize;
	int64_t n1, n2;
	int ret = -1, version;

	memset(lay, 0, sizeof(*lay));
	lay->ncpus = -1;
	/* O_NONBLOCK: a FIFO with no writer must not hang us here */
	d.fd = open(path, O_RDONLY | O_NONBLOCK);
	if (d.fd < 0)
		return bad(&d, "%s", strerror(errno));
	if (fstat(d.fd, &st) < 0) {
		bad(&d, "%s", strerror(errno));
		goto out;
	}
	if (S_ISDIR(st.st_mode)) {
		bad(&d, "is a directory, neither a trace.dat nor a raw capture (no meta)");
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		bad(&d, "not a regular file (%s): rbcheck reads a trace.dat from a file",
		    S_ISFIFO(st.st_mode) ? "a pipe" : S_ISCHR(st.st_mode) ? "a character device" :
		    S_ISSOCK(st.st_mode) ? "a socket" : "a device");
		goto out;
	}
	d.size = st.st_size;
	if (d.size < 12 || get(&d, head, 12, 0, "the magic") < 0 ||
	    memcmp(head, "\027\010\104tracing", 10)) {
		bad(&d, "not a trace-cmd data file (bad magic)");
		goto out;
	}
	if (head[11] || (head[10] != '6' && head[10] != '7')) {
		bad(&d, "trace.dat format version '%.2s' is not 6 or 7", (char *)head + 10);
		goto out;
	}
	version = head[10] - '0';
	lay->version = version;
	if (get(&d, head + 12, 6, 12, "the header (endian, long size, page size)") < 0)
		goto out;
	if (head[12] > 1) {
		bad(&d, "offset 12: endian byte %u is neither 0 (little) nor 1 (big)", head[12]);
		goto out;
	}
	d.big_endian = head[12];
	lay->big_endian = d.big_endian;
	lay->long_size = head[13];
	if (head[13] != 4 && head[13] != 8) {
		bad(&d, "offset 13: long size %u is neither 4 nor 8", head[13]);
		goto out;
	}
	psize = num(&d, head + 14, 4);
	if (psize < 512 || psize > (1U << 20) || (psize & (psize - 1))) {
		bad(&d, "offset 14: page size %" PRIu32 " (%#" PRIx32 ") is not a power of two from 512 to 1 MiB",
		    psize, psize);
		goto out;
	}
	lay->psize = psize;
	if (version == 6) {
		ret = check_v6(&d, 18);
		goto out;
	}
	n1 = string_at(&d, 18, sizeof(lay->compression), lay->compression, sizeof(lay->compression),
		       "the compression's name");
	if (n1 < 0)
		goto out;
	n2 = string_at(&d, 18 + n1, sizeof(cver), cver, sizeof(cver), "the compression's version");
	if (n2 < 0)
		goto out;
	{
		uint64_t first;

		if (get_num(&d, &first, 8, 18 + n1 + n2, "the offset of the first options section") < 0)
			goto out;
		ret = check_v7(&d, first);
	}
out:
	close(d.fd);
	if (ret < 0)
		lay->ncpus = -1;
	else
		snprintf(lay->clock, sizeof(lay->clock), "%s",
			 d.buffer_clock[0] ? d.buffer_clock : d.listed_clock);
	return ret;
}
