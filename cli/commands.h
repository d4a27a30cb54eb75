// SPDX-License-Identifier: MIT
#pragma once

// Sub-commands. Each takes argv with argv[0] being the sub-command's name and returns the exit
// status: 0 found (or done), 1 valid question without a path, 2 bad usage or invalid input.

#define AN_CLI_EXIT_OK 0
#define AN_CLI_EXIT_NO_PATH 1
#define AN_CLI_EXIT_USAGE 2

int an_cli_cmd_neerc(int argc, char **argv);
int an_cli_cmd_path(int argc, char **argv);
int an_cli_cmd_batch(int argc, char **argv);
int an_cli_cmd_render(int argc, char **argv);
int an_cli_cmd_demo(int argc, char **argv);
int an_cli_cmd_replay(int argc, char **argv);
