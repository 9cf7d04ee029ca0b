/*
 * cmd/cmd.h - the commands' entry points (one file each in cmd/), called by main.c
 */
#ifndef BC_CMD_CMD_H
#define BC_CMD_CMD_H
/* command entry points */
int bc_cmd_run(int argc, char **argv);
int bc_cmd_validate(int argc, char **argv);
int bc_cmd_keygen(int argc, char **argv);
int bc_cmd_trust(int argc, char **argv);   /* cmd/keys.c */
int bc_cmd_keyscan(int argc, char **argv); /* cmd/keys.c */
int bc_cmd_discover(int argc, char **argv);
int bc_cmd_dump_seconds(int argc, char **argv); /* cmd/dump.c */
int bc_cmd_dump_events(int argc, char **argv);	/* cmd/dumpev.c */
int bc_cmd_report(int argc, char **argv);
int bc_cmd_compare(int argc, char **argv);
int bc_cmd_agents(int argc, char **argv);
int bc_cmd_import_fio(int argc, char **argv);
int bc_cmd_import_vdbench(int argc, char **argv);

#endif
