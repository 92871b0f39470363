/* SPDX-License-Identifier: GPL-2.0 */
/* commands.h: the subcommands main.c dispatches to; each takes argv from its own name on */
#ifndef CP_COMMANDS_H
#define CP_COMMANDS_H

int cmd_record(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_calibrate(int argc, char **argv);
int cmd_probe(int argc, char **argv);
int cmd_estimate(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_import_perf(int argc, char **argv);
int cmd_flamegraph(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_agent(int argc, char **argv);
int cmd_verify(int argc, char **argv);

#endif
