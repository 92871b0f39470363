// SPDX-License-Identifier: GPL-2.0
/* test_glibc_paths.c: each glibc replica takes glibc's own path, traced instruction by instruction */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>
#include <sys/ptrace.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <capstone/capstone.h>
#include <gelf.h>

#include <cmocka.h>

#include "asmref_glibc.h"
#include "lib/elf_symbols.h"
#include "lib/elfsyms.h"
#include "lib/glibc_thresholds.h"
#include "lib/glibc_tunables.h"

/*
 * The test binary runs itself as a helper (--helper PAIR ENV-INDEX CASES...) under ptrace,
 * with GLIBC_TUNABLES set: the helper finds glibc's implementation (libc6-dbg names it; it is
 * called directly, whichever one the resolver picked) and reads the thresholds glibc's
 * variables hold, gives the replica the same ones, then calls glibc's code and the replica on
 * the same arguments, stopping before each. The parent single-steps both and compares what
 * they did: rep movsb/stosb (where, how many bytes), aligned loop stores (how many, which
 * direction), non-temporal stores, masked stores. TRACE_ALL=1 prints every call's trace.
 */

struct pair {
	const char *glibc; /* implementation symbol */
	const char *replica;
	bool set; /* memset */
};

static const struct pair pairs[] = {
	{ "__memmove_avx_unaligned_erms", "glibc_memmove_avx2", false },
	{ "__memmove_evex_unaligned_erms", "glibc_memmove_evex", false },
	{ "__memmove_avx512_unaligned_erms", "glibc_memmove_avx512", false },
	{ "__memset_avx2_unaligned_erms", "glibc_memset_avx2", true },
	{ "__memset_evex_unaligned_erms", "glibc_memset_evex", true },
	{ "__memset_avx512_unaligned_erms", "glibc_memset_avx512", true },
};

static const char *const envs[] = {
	NULL, /* glibc's defaults for this CPU */
	"glibc.cpu.x86_rep_movsb_threshold=0x1001:glibc.cpu.x86_non_temporal_threshold=0x8000:"
	"glibc.cpu.x86_rep_stosb_threshold=0x10000",
	"glibc.cpu.x86_rep_movsb_threshold=0xffffffffffffffff:"
	"glibc.cpu.x86_non_temporal_threshold=0x4041:glibc.cpu.x86_rep_stosb_threshold=1",
};

#define AREA (8u << 20)
#define BASE (3u << 20) /* src at BASE (+5 when misaligned), dst at BASE + delta */

/* ---- the helper, in the traced process ---- */

static uint64_t glibc_var(struct elf_symbols *syms, uintptr_t bias, const char *name)
{
	struct elf_symbol o;

	if (!elf_symbols_object(syms, name, &o))
		return 0;
	return *(volatile uint64_t *)(bias + o.sym.st_value);
}

static int helper(int argc, char **argv)
{
	const struct pair *p = &pairs[atoi(argv[2])];
	void *(*volatile mm)(void *, const void *, size_t) = memmove;
	struct asmref_glibc_knobs k = { 0 };
	struct elf_symbols syms;
	struct elf_symbol f;
	const struct asmref_impl *r = asmref_find(p->replica);
	struct elf_func self;
	char rsym[96];
	uint8_t *area = aligned_alloc(4096, AREA);
	uintptr_t bias;
	Dl_info info;
	char *libc;
	int fd, i;
	Elf *elf;

	if (!area || !r || !dladdr((void *)mm, &info) ||
	    !(libc = elfsyms_find_file(info.dli_fname)))
		return 3;
	bias = (uintptr_t)info.dli_fbase;
	fd = open(libc, O_RDONLY);
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	elf_symbols_init(&syms, libc, elf);
	if (!elf_symbols_by_name(&syms, p->glibc, &f)) {
		printf("nodebug\n");
		return 0;
	}
	k.rep_movsb_threshold = glibc_var(&syms, bias, "__x86_rep_movsb_threshold");
	k.rep_movsb_stop_threshold = glibc_var(&syms, bias, "__x86_rep_movsb_stop_threshold");
	k.non_temporal_threshold = glibc_var(&syms, bias, "__x86_shared_non_temporal_threshold");
	k.rep_stosb_threshold = glibc_var(&syms, bias, "__x86_rep_stosb_threshold");
	{
		struct elf_symbol c;

		if (elf_symbols_object(&syms, "__x86_string_control", &c))
			k.string_control = *(volatile uint32_t *)(bias + c.sym.st_value);
	}
	asmref_glibc_set_knobs(&k);
	snprintf(rsym, sizeof(rsym), "asmref_%s", p->replica);
	if (elfsyms_resolve("/proc/self/exe", rsym, 0, &self) || !self.size)
		return 4;
	printf("glibc %#lx %#lx replica %#lx %#lx knobs %#llx %#llx %#llx %#llx %u area %#lx\n",
	       (unsigned long)(bias + f.sym.st_value),
	       (unsigned long)(bias + f.sym.st_value + f.sym.st_size), (unsigned long)r->fn,
	       (unsigned long)r->fn + (unsigned long)self.size,
	       (unsigned long long)k.rep_movsb_threshold,
	       (unsigned long long)k.rep_movsb_stop_threshold,
	       (unsigned long long)k.non_temporal_threshold,
	       (unsigned long long)k.rep_stosb_threshold, k.string_control, (unsigned long)area);
	fflush(stdout);
	for (i = 4; i + 1 < argc; i += 2) {
		size_t n = strtoull(argv[i], NULL, 0);
		long delta = strtol(argv[i + 1], NULL, 0);
		uint8_t *src = area + BASE + (delta & 1 ? 5 : 0), *dst = area + BASE + delta;
		int which;

		for (which = 0; which < 2; which++) {
			void *fn = which ? r->fn : (void *)(bias + f.sym.st_value);

			raise(SIGSTOP);
			if (p->set)
				((void *(*)(void *, int, size_t))fn)(dst, 0x5a, n);
			else
				((void *(*)(void *, const void *, size_t))fn)(dst, src, n);
		}
	}
	return 0;
}

/* ---- the tracer ---- */

struct trace {
	unsigned long dst, src;
	unsigned rep, nt, aligned, masked;
	long rep_dst, rep_src, rep_count; /* the first rep movs/stos: offsets from dst, src */
	long first_store, second_store;	  /* aligned stores, from dst */
	bool truncated;
};

static uint64_t reg(const struct user_regs_struct *r, x86_reg id)
{
	switch (id) {
	case X86_REG_RAX:
		return r->rax;
	case X86_REG_RBX:
		return r->rbx;
	case X86_REG_RCX:
		return r->rcx;
	case X86_REG_RDX:
		return r->rdx;
	case X86_REG_RSI:
		return r->rsi;
	case X86_REG_RDI:
		return r->rdi;
	case X86_REG_RBP:
		return r->rbp;
	case X86_REG_RSP:
		return r->rsp;
	case X86_REG_R8:
		return r->r8;
	case X86_REG_R9:
		return r->r9;
	case X86_REG_R10:
		return r->r10;
	case X86_REG_R11:
		return r->r11;
	case X86_REG_R12:
		return r->r12;
	case X86_REG_R13:
		return r->r13;
	case X86_REG_R14:
		return r->r14;
	case X86_REG_R15:
		return r->r15;
	default:
		return 0;
	}
}

static int wait_stop(pid_t pid)
{
	int status;

	if (waitpid(pid, &status, 0) != pid || !WIFSTOPPED(status))
		return -1;
	return WSTOPSIG(status);
}

static void classify(csh cs, cs_insn *insn, const struct user_regs_struct *r, struct trace *t)
{
	const cs_x86 *x = &insn->detail->x86;
	const char *m = insn->mnemonic;
	uint64_t addr;

	if (!strncmp(m, "vmovntdq", 8)) {
		t->nt++;
		return;
	}
	if (x->op_count < 1 || x->operands[0].type != X86_OP_MEM)
		return;
	if (!strcmp(m, "vmovdqu8") && x->operands[0].mem.base != X86_REG_INVALID &&
	    strstr(insn->op_str, "{k")) {
		t->masked++;
		return;
	}
	if (strncmp(m, "vmovdqa", 7) && strcmp(m, "vmovaps"))
		return;
	addr = reg(r, x->operands[0].mem.base) +
	       reg(r, x->operands[0].mem.index) * (uint64_t)x->operands[0].mem.scale +
	       (uint64_t)x->operands[0].mem.disp;
	if (!t->aligned++)
		t->first_store = (long)(addr - t->dst);
	else if (t->aligned == 2)
		t->second_store = (long)(addr - t->dst);
	(void)cs;
}

/* From a stop before a call, every instruction of the function in [lo, hi), until it returns. */
static int trace_call(pid_t pid, csh cs, unsigned long lo, unsigned long hi, struct trace *t)
{
	cs_insn *insn = cs_malloc(cs);
	bool inside = false;
	long steps;

	for (steps = 0; steps < 4000000; steps++) {
		struct user_regs_struct r;
		uint8_t code[16];
		const uint8_t *cp = code;
		size_t left = sizeof(code);
		uint64_t at;
		int i;

		if (ptrace(PTRACE_GETREGS, pid, 0, &r))
			goto fail;
		if (r.rip >= lo && r.rip < hi) {
			if (!inside) {
				t->dst = r.rdi;
				t->src = r.rsi;
			}
			inside = true;
			for (i = 0; i < 2; i++) {
				long w = ptrace(PTRACE_PEEKTEXT, pid, r.rip + 8 * i, 0);

				memcpy(code + 8 * i, &w, 8);
			}
			at = r.rip;
			if (code[0] == 0xf3 && (code[1] == 0xa4 || code[1] == 0xaa)) {
				/* Step over the whole rep string instruction: a breakpoint after it. */
				long orig = ptrace(PTRACE_PEEKTEXT, pid, r.rip + 2, 0);

				if (!t->rep++) {
					t->rep_dst = (long)(r.rdi - t->dst);
					t->rep_src = (long)(r.rsi - t->src);
					t->rep_count = (long)r.rcx;
				}
				ptrace(PTRACE_POKETEXT, pid, r.rip + 2, (orig & ~0xffL) | 0xcc);
				ptrace(PTRACE_CONT, pid, 0, 0);
				if (wait_stop(pid) != SIGTRAP)
					goto fail;
				ptrace(PTRACE_POKETEXT, pid, r.rip + 2, orig);
				ptrace(PTRACE_GETREGS, pid, 0, &r);
				r.rip -= 1;
				ptrace(PTRACE_SETREGS, pid, 0, &r);
				continue;
			}
			if (cs_disasm_iter(cs, &cp, &left, &at, insn))
				classify(cs, insn, &r, t);
		} else if (inside) {
			cs_free(insn, 1);
			return 0; /* returned */
		}
		if (ptrace(PTRACE_SINGLESTEP, pid, 0, 0) || wait_stop(pid) != SIGTRAP)
			goto fail;
	}
	t->truncated = true;
fail:
	cs_free(insn, 1);
	return -1;
}

static void describe(const struct trace *t, char *buf, size_t len)
{
	snprintf(buf, len,
		 "rep %u (dst%+ld src%+ld n=%ld) aligned %u (first %+ld, %s) nt %u masked %u",
		 t->rep, t->rep ? t->rep_dst : 0, t->rep ? t->rep_src : 0,
		 t->rep ? t->rep_count : 0, t->aligned, t->aligned ? t->first_store : 0,
		 t->aligned < 2			    ? "-"
		 : t->second_store > t->first_store ? "up"
						    : "down",
		 t->nt, t->masked);
}

static const long move_lens[] = { 5,	100,  200,  300,  600,	 1000,	2112,
				  2113, 4097, 4098, 5000, 20000, 40000, 70000 };
static const long move_deltas[] = {
	(1 << 20) + 64, (1 << 20) + 1003, -(1 << 20) - 2005, 17, -17, -1000, 0
};
static const long set_lens[] = { 0,   1,   3,	7,   15,   31,	 33,   63,    64,   65,
				 100, 200, 300, 600, 2048, 2049, 3000, 20000, 70000 };
static const long set_deltas[] = { 0, (1 << 20) + 5, 4096 - 10 };

/*
 * What lib/glibc_thresholds.c derives from `ld.so --list-tunables` under the same
 * GLIBC_TUNABLES is what glibc's variables hold (the stop threshold is no tunable in 2.36).
 */
static void check_derivation(const char *env, unsigned long long t, unsigned long long stop,
			     unsigned long long nt, unsigned long long stosb, unsigned control)
{
	struct asmref_glibc_knobs k;
	struct glibc_tunables tun;
	struct asmref_cpu cpu;
	char *why = NULL;

	assert_int_equal(glibc_tunables_read(NULL, env, &tun, &why), 0);
	asmref_cpu_detect(&cpu);
	assert_int_equal(
		glibc_thresholds_in_force(&tun, &cpu, (uint64_t)sysconf(_SC_LEVEL2_CACHE_SIZE), &k),
		0);
	assert_int_equal(k.rep_movsb_threshold, t);
	assert_int_equal(k.rep_movsb_stop_threshold, stop);
	assert_int_equal(k.non_temporal_threshold, nt);
	assert_int_equal(k.rep_stosb_threshold, stosb);
	assert_int_equal(k.string_control, control);
}

static void run_pair(const struct pair *p, size_t pair_index)
{
	char *args[4 + 2 * 200], idx[16], envi[16], env_var[512], line[512];
	static char num[2 * 200][24];
	size_t nargs = 0, e, i, j, calls, diffs = 0;
	const long *lens = p->set ? set_lens : move_lens,
		   *deltas = p->set ? set_deltas : move_deltas;
	size_t nl = p->set ? sizeof(set_lens) / sizeof(long) : sizeof(move_lens) / sizeof(long);
	size_t nd = p->set ? sizeof(set_deltas) / sizeof(long) : sizeof(move_deltas) / sizeof(long);

	snprintf(idx, sizeof(idx), "%zu", pair_index);
	args[nargs++] = "test_glibc_paths";
	args[nargs++] = "--helper";
	args[nargs++] = idx;
	args[nargs++] = envi;
	for (i = 0; i < nl; i++)
		for (j = 0; j < nd; j++) {
			/* Large lengths only apart and misaligned: single steps are slow. */
			if (lens[i] > 8192 && j > 2)
				continue;
			snprintf(num[nargs - 4], sizeof(num[0]), "%ld", lens[i]);
			args[nargs] = num[nargs - 4];
			nargs++;
			snprintf(num[nargs - 4], sizeof(num[0]), "%ld", deltas[j]);
			args[nargs] = num[nargs - 4];
			nargs++;
		}
	args[nargs] = NULL;
	calls = (nargs - 4) / 2;
	for (e = 0; e < sizeof(envs) / sizeof(envs[0]); e++) {
		unsigned long glo, ghi, rlo, rhi, area;
		unsigned long long kt, ks, kn, kss;
		unsigned kc;
		int fds[2], sig;
		FILE *in;
		pid_t pid;
		csh cs;

		snprintf(envi, sizeof(envi), "%zu", e);
		assert_int_equal(pipe(fds), 0);
		pid = fork();
		assert_true(pid >= 0);
		if (!pid) {
			char *env[] = { env_var, NULL };

			snprintf(env_var, sizeof(env_var), "GLIBC_TUNABLES=%s", envs[e] ?: "");
			dup2(fds[1], STDOUT_FILENO);
			close(fds[0]);
			if (ptrace(PTRACE_TRACEME, 0, 0, 0))
				_exit(126);
			execve("/proc/self/exe", args, envs[e] ? env : (char *[]){ NULL });
			_exit(127);
		}
		close(fds[1]);
		in = fdopen(fds[0], "r");
		if (wait_stop(pid) != SIGTRAP) { /* the exec */
			print_message("skipped: cannot trace a child here (ptrace refused?)\n");
			skip();
		}
		ptrace(PTRACE_SETOPTIONS, pid, 0, PTRACE_O_EXITKILL);
		ptrace(PTRACE_CONT, pid, 0, 0);
		sig = wait_stop(pid);
		if (!fgets(line, sizeof(line), in) || !strncmp(line, "nodebug", 7)) {
			kill(pid, SIGKILL);
			waitpid(pid, NULL, 0);
			fclose(in);
			print_message("skipped: no libc6-dbg (%s is not named)\n", p->glibc);
			skip();
		}
		assert_int_equal(sig, SIGSTOP);
		assert_int_equal(sscanf(line,
					"glibc %lx %lx replica %lx %lx knobs %llx %llx %llx %llx "
					"%u area %lx",
					&glo, &ghi, &rlo, &rhi, &kt, &ks, &kn, &kss, &kc, &area),
				 10);
		if (!e)
			print_message(
				"%s knobs glibc runs with: T %#llx stop %#llx nt %#llx stosb %#llx "
				"control %u\n",
				p->glibc, kt, ks, kn, kss, kc);
		check_derivation(envs[e], kt, ks, kn, kss, kc);
		assert_int_equal(cs_open(CS_ARCH_X86, CS_MODE_64, &cs), CS_ERR_OK);
		cs_option(cs, CS_OPT_DETAIL, CS_OPT_ON);
		for (i = 0; i < calls; i++) {
			struct trace g = { 0 }, r = { 0 };
			char gs[256], rs[256];

			/* Stopped at raise(SIGSTOP) before glibc's call, then before the replica's. */
			assert_int_equal(trace_call(pid, cs, glo, ghi, &g), 0);
			ptrace(PTRACE_CONT, pid, 0, 0);
			assert_int_equal(wait_stop(pid), SIGSTOP);
			assert_int_equal(trace_call(pid, cs, rlo, rhi, &r), 0);
			describe(&g, gs, sizeof(gs));
			describe(&r, rs, sizeof(rs));
			if (getenv("TRACE_ALL"))
				print_message("%s env %zu n=%s d=%s: %s\n", p->replica, e,
					      args[4 + 2 * i], args[5 + 2 * i], gs);
			if (strcmp(gs, rs)) {
				print_message(
					"%s env %zu n=%s delta=%s:\n  glibc   %s\n  replica %s\n",
					p->replica, e, args[4 + 2 * i], args[5 + 2 * i], gs, rs);
				diffs++;
			}
			ptrace(PTRACE_CONT, pid, 0, 0);
			if (i + 1 < calls)
				assert_int_equal(wait_stop(pid), SIGSTOP);
		}
		cs_close(&cs);
		waitpid(pid, NULL, 0);
		fclose(in);
	}
	print_message("%s: %zu calls x %zu settings traced against %s, %zu differ\n", p->replica,
		      calls, sizeof(envs) / sizeof(envs[0]), p->glibc, diffs);
	assert_int_equal(diffs, 0);
}

static void test_pair(void **state)
{
	const struct pair *p = *state;

	if (!asmref_usable(asmref_find(p->replica))) {
		print_message("skipped: this CPU cannot run %s\n", p->replica);
		skip();
	}
	run_pair(p, (size_t)(p - pairs));
}

int main(int argc, char **argv)
{
	struct CMUnitTest tests[sizeof(pairs) / sizeof(pairs[0])];
	size_t i;

	if (argc > 2 && !strcmp(argv[1], "--helper"))
		return helper(argc, argv);
	for (i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++)
		tests[i] = (struct CMUnitTest){ .name = pairs[i].replica,
						.test_func = test_pair,
						.initial_state = (void *)&pairs[i] };
	return cmocka_run_group_tests(tests, NULL, NULL);
}
