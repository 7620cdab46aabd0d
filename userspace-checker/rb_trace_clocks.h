/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's trace clocks: what a trace_clock file may name and so what
 * -C may give.  Not the module's names (rb_names.c reads those from the
 * capture's format): the kernel's own list, trace_clocks[] in
 * kernel/trace/trace.c with x86's ARCH_TRACE_CLOCKS; host/names checks
 * that every clock the module can read is one of them.
 */
#ifndef _RB_TRACE_CLOCKS_H
#define _RB_TRACE_CLOCKS_H

#include <stdbool.h>
#include <stddef.h>

/* Whether @name is one of the kernel's trace clocks. */
bool rb_trace_clock_known(const char *name);
/* Them all, comma-separated, for a message. */
const char *rb_trace_clock_list(void);
/*
 * The clock in use in the text of a trace_clock file, "local [global]
 * counter ...": the bracketed name into @name.  1 if found, 0 if none is
 * marked (or it does not fit @len).
 */
int rb_trace_clock_selected(const char *text, char *name, size_t len);

#endif
