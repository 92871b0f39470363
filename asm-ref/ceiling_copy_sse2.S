/* SPDX-License-Identifier: GPL-2.0 */
/* calibrate's ceiling: an L1-resident copy loop, 16 B SSE2 loads and stores (asmref_ceiling.h). */
#include "ceiling_loop.inc"

	CEILING_COPY asmref_ceiling_copy_sse2, 16, movdqu, %xmm0, %xmm1, %xmm2, %xmm3, ""

	.section .note.GNU-stack, "", @progbits
