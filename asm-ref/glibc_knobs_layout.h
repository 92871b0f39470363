/* SPDX-License-Identifier: GPL-2.0 */
/* glibc_knobs_layout.h: byte offsets in struct asmref_glibc_knobs, for the assembly replicas */
#ifndef ASMREF_GLIBC_KNOBS_LAYOUT_H
#define ASMREF_GLIBC_KNOBS_LAYOUT_H

/* Read by glibc_memmove_body.inc and glibc_memset_body.inc on every call (asmref_glibc.h). */
#define KNOB_REP_MOVSB_THRESHOLD 0
#define KNOB_REP_MOVSB_STOP_THRESHOLD 8
#define KNOB_NON_TEMPORAL_THRESHOLD 16
#define KNOB_REP_STOSB_THRESHOLD 24
#define KNOB_STRING_CONTROL 32
#define KNOBS_SIZE 40

/* Bit of KNOB_STRING_CONTROL: no rep movsb when src is 1..63 bytes above dst (mod 2^32). */
#define KNOB_AVOID_SHORT_DISTANCE_REP_MOVSB 1

#define GLIBC_PAGE_SIZE 4096

#endif
