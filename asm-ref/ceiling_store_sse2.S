/* SPDX-License-Identifier: GPL-2.0 */
/* calibrate's ceiling: an L1-resident store loop, 16 B SSE2 stores (asmref_ceiling.h). */
#include "ceiling_loop.inc"

	CEILING_STORE asmref_ceiling_store_sse2, 16, movdqu, %xmm0, "pxor %xmm0, %xmm0", ""

	.section .note.GNU-stack, "", @progbits
