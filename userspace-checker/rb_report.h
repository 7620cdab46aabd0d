/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _RB_REPORT_H
#define _RB_REPORT_H

#include <stdio.h>

#include "rb_input.h"

extern const char *const rb_verdict_names[];

/* The human summary: short enough to paste into a mailing-list reply. */
void rb_report_text(FILE *f, const struct rb_input *in, const char *source);

#endif /* _RB_REPORT_H */
