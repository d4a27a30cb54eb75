// SPDX-License-Identifier: MIT
// Every class of invalid input file gets exit status 2, nothing on standard output and one line on
// standard error that names the file and where in it the fault is: line and column for JSON
// syntax and encoding, feature, ring and vertex for geometry, line (and column) for NEERC text.
// Expected positions are counted by hand from the inputs below.

#define _XOPEN_SOURCE 700

#include "cli_runner.h"

static void write_bytes(const char *dir, const char *name, const char *bytes, size_t length) {
  char path[1024];
  join(path, sizeof path, dir, name);
  FILE *f = fopen(path, "wb");
  ck_assert_msg(f != NULL, "cannot create %s", path);
  ck_assert_uint_eq(fwrite(bytes, 1, length, f), length);
  fclose(f);
}

// ---------------------------------------------------------------------------------------------

#define FC(features) "{\"type\":\"FeatureCollection\",\"features\":[" features "]}"
#define FEATURE(properties, type, coordinates)                                                     \
  "{\"type\":\"Feature\",\"properties\":" properties ",\"geometry\":{\"type\":\"" type             \
  "\",\"coordinates\":" coordinates "}}"
#define POLYGON(coordinates) FEATURE("{}", "Polygon", coordinates)
#define SQUARE "[[0,0],[4,0],[4,4],[0,4],[0,0]]"

typedef enum tool { MAP, NEERC } tool;

typedef struct bad_input {
  const char *name; ///< file name; its extension picks the reader
  const char *bytes;
  size_t length;     ///< 0: strlen(bytes)
  tool command;      ///< MAP: `path --map FILE ...`; NEERC: `neerc FILE`
  const char *where; ///< must appear in the message (the position)
  const char *what;  ///< must appear too (the kind of fault); NULL: not checked
} bad_input;

static const bad_input cases[] = {
    // --- JSON syntax and encoding: line:column --------------------------------------------------
    // 40 characters, then the end: the next column is 41.
    {"truncated.geojson", "{\"type\":\"FeatureCollection\",\"features\":[", 0, MAP,
     ":1:41:", "truncated"},
    {"truncated_lines.geojson", "{\"type\":\"FeatureCollection\",\n\"features\":[\n{\"type\":", 0,
     MAP, ":3:9:", "truncated"},
    // `"name":"caf` is 11 characters; the Latin-1 byte is the 12th.
    {"latin1.geojson", "{\"type\":\"FeatureCollection\",\n\"name\":\"caf\xe9\",\"features\":[]}", 0,
     MAP, ":2:12:", "UTF-8"},
    // A two-byte character counts as one column: `"name":"é` is 9 characters.
    {"bad_continuation.geojson", "{\"type\":\"FeatureCollection\",\n\"name\":\"\xc3\xa9\xff\"}", 0,
     MAP, ":2:10:", "UTF-8"},
    {"overlong.geojson", "{\"n\":\"\xc0\xaf\"}", 0, MAP, ":1:7:", "UTF-8"},
    {"nul.geojson", "{\"type\":\0\"FeatureCollection\"}", 29, MAP, ":1:9:", "NUL"},
    {"noise.geojson", "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", 16, MAP, ":1:1:", "UTF-8"},
    {"empty.geojson", "", 0, MAP, ":1:1:", "empty"},
    {"blank.geojson", "\n\n  ", 0, MAP, ":3:3:", "empty"},
    // JSON has no NaN: the parser stops at the N, character 17 of line 2.
    {"nan.geojson", FC("\n" POLYGON("[[[0,0],[NaN,0],[4,4]]]")), 0, MAP, ":2:", "invalid JSON"},
    {"bare_word.geojson", "{\"type\":\"FeatureCollection\",\"features\":[nul]}", 0, MAP,
     ":1:41:", "invalid JSON"},
    {"trailing.geojson", FC("") "\n  x", 0, MAP, ":2:3:", "after the end"},
    // --- GeoJSON structure: which feature, ring and vertex ------------------------------------
    {"linestring_top.geojson", "{\"type\":\"LineString\",\"coordinates\":[[0,0],[1,1]]}", 0, MAP,
     "top-level", "\"LineString\""},
    {"array_top.geojson", "[1,2]", 0, MAP, "top-level", "array"},
    {"features_object.geojson", "{\"type\":\"FeatureCollection\",\"features\":{}}", 0, MAP,
     "\"features\"", "array"},
    {"linestring_feature.geojson",
     FC(POLYGON("[" SQUARE "]") ",{\"type\":\"LineString\",\"coordinates\":[[0,0],[1,1]]}"), 0, MAP,
     "feature 1", "\"LineString\""},
    {"linestring_bounds.geojson",
     FC(FEATURE("{\"role\":\"bounds\"}", "LineString", "[[0,0],[1,1]]")), 0, MAP, "feature 0",
     "bounds"},
    {"coordinates_string.geojson", FC(POLYGON("\"abc\"")), 0, MAP, "feature 0", "array"},
    {"ring_of_numbers.geojson", FC(POLYGON("[[1,2,3]]")), 0, MAP, "feature 0, ring 0, vertex 0",
     "[x, y]"},
    {"point_not_array.geojson", FC(FEATURE("{\"radius\":1}", "Point", "7")), 0, MAP, "feature 0",
     "[x, y]"},
    {"string_number.geojson", FC(POLYGON("[[[0,0],[\"4\",0],[4,4]]]")), 0, MAP,
     "feature 0, ring 0, vertex 1", "string"},
    {"string_radius.geojson", FC(FEATURE("{\"radius\":\"2\"}", "Point", "[1,1]")), 0, MAP,
     "feature 0", "string"},
    {"infinity.geojson", FC(POLYGON("[[[0,0],[4,0],[4,1e999]]]")), 0, MAP,
     "feature 0, ring 0, vertex 2", "finite"},
    {"minus_infinity_radius.geojson", FC(FEATURE("{\"radius\":-1e999}", "Point", "[1,1]")), 0, MAP,
     "feature 0", "finite"},
    {"too_large.geojson", FC(POLYGON("[[[0,0],[4,0],[4,1e200]]]")), 0, MAP,
     "feature 0, ring 0 (outer), vertex 2", "too_large"},
    {"negative_radius.geojson",
     FC(POLYGON("[" SQUARE "]") "," FEATURE("{\"radius\":-2}", "Point", "[9,9]")), 0, MAP,
     "feature 1", "negative"},
    // --- ring geometry: the library's verdict, with the feature, ring and vertex -----------
    // Edges 0-1 and 2-3 cross: the culprit is one of their first vertices.
    {"bowtie.geojson", FC(POLYGON("[[[0,0],[2,2],[2,0],[0,2],[0,0]]]")), 0, MAP,
     "feature 0, ring 0 (outer), vertex ", "self_intersection"},
    // Vertex 3 lies on edge 0-1.
    {"self_touching.geojson", FC(POLYGON("[[[0,0],[4,0],[4,4],[2,0],[0,4]]]")), 0, MAP,
     "feature 0, ring 0 (outer), vertex ", "self_intersection"},
    {"two_points.geojson", FC(POLYGON("[[[0,0],[1,1],[1,1],[0,0]]]")), 0, MAP, "feature 0, ring 0",
     "3 distinct"},
    {"collinear.geojson", FC(POLYGON("[[[0,0],[1,1],[3,3]]]")), 0, MAP, "feature 0, ring 0",
     "zero_area"},
    {"hole_outside.geojson", FC(POLYGON("[" SQUARE ",[[7,7],[8,7],[8,8]]]")), 0, MAP,
     "feature 0, ring 1 (hole)", "hole_outside"},
    {"hole_crossing.geojson", FC(POLYGON("[" SQUARE ",[[1,1],[6,1],[6,2],[1,2]]]")), 0, MAP,
     "feature 0, ring 1 (hole)", "self_intersection"},
    {"multipolygon_part.geojson",
     FC(FEATURE("{}", "MultiPolygon", "[[" SQUARE "],[[[5,0],[7,2],[7,0],[5,2]]]]")), 0, MAP,
     "feature 0 (polygon 1 of the MultiPolygon), ring 0 (outer), vertex ", "self_intersection"},
    {"bowtie_bounds.geojson",
     FC(FEATURE("{\"role\":\"bounds\"}", "Polygon", "[[[-9,-9],[9,9],[9,-9],[-9,9]]]")), 0, MAP,
     "feature 0 (bounds), vertex ", "self_intersection"},
    // --- files without a known extension are sniffed: not `{`, so NEERC text --------------
    {"noise.bin", "\x7f\x45LF\x02\x01\x01", 7, MAP, ":1:1:", "not a number"},
    // --- NEERC text: line (and column for a bad token) ---------------------------------------
    {"truncated_case.in", "1 2\n0 0 5 5\n1 1 2 2\n", 0, NEERC, ":3:", "truncated"},
    {"truncated_rect.in", "1 1\n0 0 5 5\n1 1 2\n", 0, NEERC, ":3:", "truncated"},
    {"word.in", "1 1\n0 0 5 5\n1 1 2 x\n", 0, NEERC, ":3:7:", "not a number"},
    {"infinite.in", "1 0\n0 0 1e999 1\n", 0, NEERC, ":2:5:", "finite"},
    {"nan.in", "nan 0\n0 0 1 1\n", 0, NEERC, ":1:1:", "not a number"},
    {"negative_radius.in", "-1 0\n0 0 1 1\n", 0, NEERC, ":1:", "negative"},
    {"fraction_count.in", "1 2.5\n0 0 1 1\n", 0, NEERC, ":1:", "whole number"},
    {"flat_rect.in", "1 1\n0 0 5 5\n1 1 1 3\n", 0, NEERC, ":3:", "zero width"},
    {"too_large.in", "1 1\n0 0 5 5\n1 1 1e200 2\n", 0, NEERC, ":3:", "too_large"},
    // `neerc` answers an empty input with no lines; as a map it has no case to take.
    {"empty.in", "", 0, MAP, ":1:", "no case"},
    {"noise.in", "\x01\x02\x03 \xff", 5, NEERC, ":1:1:", "not a number"},
    // --- MovingAI grids: line and column ---------------------------------------------------
    {"empty.map", "", 0, MAP, ":1:1:", "empty"},
    {"not_type.map", "tipe octile\nheight 1\nwidth 1\nmap\n.\n", 0, MAP, ":1:1:", "`type octile`"},
    {"hex.map", "type hex\nheight 1\nwidth 1\nmap\n.\n", 0, MAP, ":1:6:", "unsupported"},
    {"truncated_header.map", "type octile\nheight 2\n", 0, MAP, ":3:1:", "ends in the header"},
    {"height_word.map", "type octile\nheight x\nwidth 3\nmap\n...\n", 0, MAP,
     ":2:8:", "whole number"},
    {"height_zero.map", "type octile\nheight 0\nwidth 3\nmap\n", 0, MAP, ":2:8:", "whole number"},
    {"too_wide.map", "type octile\nheight 1\nwidth 100000\nmap\n", 0, MAP,
     ":3:7:", "from 1 to 16384"},
    {"no_value.map", "type octile\nheight\nwidth 1\nmap\n", 0, MAP, ":2:7:", "whole number"},
    {"no_width.map", "type octile\nheight 2\nmap\n..\n..\n", 0, MAP, ":3:1:", "`width W`"},
    {"height_twice.map", "type octile\nheight 2\nheight 2\nmap\n", 0, MAP, ":3:1:", "twice"},
    {"no_map_line.map", "type octile\nheight 1\nwidth 2\n..\n", 0, MAP, ":4:1:", "`map`"},
    {"short_row.map", "type octile\nheight 2\nwidth 3\nmap\n...\n..\n", 0, MAP,
     ":6:3:", "row 1 has 2 cells"},
    {"long_row.map", "type octile\nheight 2\nwidth 3\nmap\n...\n....\n", 0, MAP,
     ":6:4:", "longer than the width"},
    {"missing_rows.map", "type octile\nheight 3\nwidth 2\nmap\n..\n@@\n", 0, MAP,
     ":7:1:", "ends after 2 of the 3 rows"},
    {"huge.map", "type octile\nheight 16384\nwidth 16384\nmap\n", 0, MAP,
     ":5:1:", "ends after 0 of the 16384 rows"},
    {"extra_rows.map", "type octile\nheight 1\nwidth 2\nmap\n..\n@@\n", 0, MAP,
     ":6:1:", "more rows"},
    {"tab.map", "type octile\nheight 1\nwidth 3\nmap\n.\t.\n", 0, MAP, ":5:2:", "0x09"},
    {"latin1.map", "type octile\nheight 1\nwidth 3\nmap\n..\xe9\n", 0, MAP, ":5:3:", "0xe9"},
    {"nul.map", "type octile\nheight 1\nwidth 2\nmap\n.\0\n", 36, MAP, ":5:2:", "0x00"},
    // Read by its content: `type ` starts a grid whatever the name.
    {"grid.txt", "type octile\nheight 1\nwidth 2\nmap\n.\n", 0, MAP, ":5:2:", "row 0 has 1 cells"},
};

START_TEST(invalid_input_exits_2_with_position) {
  const bad_input *c = &cases[_i];
  char dir[512], file[1024];
  make_temp_dir(dir, sizeof dir);
  write_bytes(dir, c->name, c->bytes, c->length != 0 ? c->length : strlen(c->bytes));
  join(file, sizeof file, dir, c->name);
  const char *map_args[] = {"path",   "--map", file,   "--radius", "0.5",
                            "--from", "-5,-5", "--to", "-4,-4",    NULL};
  const char *neerc_args[] = {"neerc", file, NULL};
  run_result r = run_cli(dir, NULL, c->command == MAP ? map_args : neerc_args);
  ck_assert_msg(r.code == 2, "%s: exit %d, stderr '%s'", c->name, r.code, r.err);
  ck_assert_msg(r.out[0] == '\0', "%s: standard output '%s'", c->name, r.out);
  ck_assert_msg(strstr(r.err, c->name) != NULL, "%s: message '%s' lacks the file", c->name, r.err);
  ck_assert_msg(strstr(r.err, c->where) != NULL, "%s: message '%s' lacks '%s'", c->name, r.err,
                c->where);
  ck_assert_msg(c->what == NULL || strstr(r.err, c->what) != NULL, "%s: message '%s' lacks '%s'",
                c->name, r.err, c->what);
  ck_assert_msg(count_lines(r.err) == 1, "%s: message is not one line: '%s'", c->name, r.err);
  free_result(&r);
  remove_temp_dir(dir);
}
END_TEST

// The culprit vertex of a crossing is the first vertex of one of the two crossing edges.
START_TEST(bowtie_names_a_crossing_edge) {
  char dir[512], file[1024];
  make_temp_dir(dir, sizeof dir);
  const char *text = FC(POLYGON("[[[0,0],[2,2],[2,0],[0,2],[0,0]]]"));
  write_bytes(dir, "bowtie.geojson", text, strlen(text));
  join(file, sizeof file, dir, "bowtie.geojson");
  const char *args[] = {"render", "--map", file, "--out", "x.svg", NULL};
  run_result r = run_cli(dir, NULL, args);
  ck_assert_int_eq(r.code, 2);
  ck_assert_msg(strstr(r.err, "vertex 0:") != NULL || strstr(r.err, "vertex 2:") != NULL,
                "message '%s'", r.err);
  free_result(&r);
  remove_temp_dir(dir);
}
END_TEST

static Suite *cli_errors_suite(void) {
  Suite *suite = suite_create("cli_errors");
  TCase *tc = tcase_create("invalid_input");
  tcase_set_timeout(tc, 60);
  tcase_add_loop_test(tc, invalid_input_exits_2_with_position, 0,
                      (int)(sizeof cases / sizeof cases[0]));
  tcase_add_test(tc, bowtie_names_a_crossing_edge);
  suite_add_tcase(suite, tc);
  return suite;
}

int main(void) {
  SRunner *runner = srunner_create(cli_errors_suite());
  srunner_run_all(runner, CK_NORMAL);
  int failed = srunner_ntests_failed(runner);
  srunner_free(runner);
  return failed == 0 ? 0 : 1;
}
