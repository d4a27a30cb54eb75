// SPDX-License-Identifier: MIT
#include "args.h"
#include "commands.h"
#include "map_file.h"
#include "neerc_input.h"
#include "session.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "usage: arcnav neerc [FILE]\n"
    "\n"
    "Solve NEERC 2006 problem D (\"Driving Directions\") input read from FILE, or from standard\n"
    "input when FILE is missing or '-'. Each case is `r n`, `xA yA xB yB` and n rectangles\n"
    "`x1 y1 x2 y2`; cases run until the end of the input. For each case one line is printed:\n"
    "the length of the shortest path of the disk's centre with 6 digits after the point, or\n"
    "`no solution`.\n"
    "\n"
    "Exit status: 0 when every case was answered, 2 on malformed input (FILE:LINE: message).\n";

typedef struct answer {
  bool found;
  double length;
} answer;

// Everything is solved before anything is printed, so malformed or unsolvable input leaves
// standard output empty.
static bool solve_case(const char *name, const an_cli_neerc_case *c, answer *out,
                       an_cli_diag *diag) {
  an_cli_session session;
  memset(&session, 0, sizeof session);
  if (!an_cli_neerc_case_map(name, c, &session.geometry, diag)) {
    return false;
  }
  session.tangent_graph = ARCNAV_TANGENT_GRAPH_ON_DEMAND;
  if (!an_cli_map_build(&session.geometry, &session.map, diag) ||
      !an_cli_session_plan(&session, "neerc", c->radius, ARCNAV_ENGINE_AUTO, diag)) {
    an_cli_session_free(&session);
    return false;
  }
  double micros = 0;
  arcnav_status status = an_cli_session_find(&session, c->from, c->to, &micros);
  bool ok = arcnav_status_is_answer(status);
  if (!ok) {
    an_cli_diag_set(diag, "%s:%d: the query failed: %s (%s)", name, c->line,
                    arcnav_status_message(status), arcnav_status_name(status));
  } else {
    out->found = status == ARCNAV_OK;
    out->length = out->found ? arcnav_path_length(session.path) : 0;
  }
  an_cli_session_free(&session);
  return ok;
}

int an_cli_cmd_neerc(int argc, char **argv) {
  an_cli_diag diag = {{0}};
  an_cli_args_result args;
  int early_exit = an_cli_parse_command("neerc", argc, argv, NULL, 0, 1, usage, &args);
  if (early_exit >= 0) {
    return early_exit;
  }
  const char *file = args.positional_count > 0 ? args.positional[0] : "-";
  bool from_stdin = strcmp(file, "-") == 0;
  const char *name = from_stdin ? "<stdin>" : file;
  char *text = NULL;
  size_t length = 0;
  bool read = from_stdin ? an_cli_read_stream(stdin, name, &text, &length, &diag)
                         : an_cli_read_file(file, &text, &length, &diag);
  if (!read) {
    an_cli_diag_print(&diag);
    return AN_CLI_EXIT_USAGE;
  }
  an_cli_neerc_input input;
  bool ok = an_cli_neerc_parse(name, text, length, &input, &diag);
  free(text);
  if (!ok) {
    an_cli_diag_print(&diag);
    return AN_CLI_EXIT_USAGE;
  }
  answer *answers = input.case_count > 0 ? calloc(input.case_count, sizeof *answers) : NULL;
  if (input.case_count > 0 && answers == NULL) {
    an_cli_diag_set(&diag, "%s: out of memory", name);
    ok = false;
  }
  for (size_t i = 0; ok && i < input.case_count; i++) {
    ok = solve_case(name, &input.cases[i], &answers[i], &diag);
  }
  if (ok) {
    for (size_t i = 0; i < input.case_count; i++) {
      if (answers[i].found) {
        printf("%.6f\n", answers[i].length);
      } else {
        puts("no solution");
      }
    }
  } else {
    an_cli_diag_print(&diag);
  }
  free(answers);
  an_cli_neerc_free(&input);
  return ok ? AN_CLI_EXIT_OK : AN_CLI_EXIT_USAGE;
}
