/* The HTML report and the text drawings: the page holds every finding of
 * the JSON output with its two drawings, the drawn degree, sectors and
 * words agree with the analysis' message, the costs of the chosen profile
 * and of the K20c profile, the array inventory; source text cannot inject
 * markup; nothing is fetched; -o writes whole files or none. check --draw
 * adds the drawings and changes nothing else; explain draws its examples.
 * (The page in a real browser: warplint_browser.sh.)
 * usage: test_warplint_html WARPLINT SCRATCH_DIR */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "json_reader.h"
#include "testing.h"
#include "text_file.h"
#include "wl_test_util.h"

static const char *warplint, *scratch;
static char *profile;

static char *run(const char *args, const char *redirect, int *status) {
  char *cmd = wl_test_format("'%s' %s %s", warplint, args, redirect);
  char *out = wl_test_run(cmd, status);
  free(cmd);
  return out ? out : calloc(1, 1);
}

static char *fixture_list(const char *const *names) {
  char *list = calloc(1, 1);
  for (; *names; names++) {
    char *longer = wl_test_format("%s '%s/tests/advisor/fixtures/%s'", list, test_source_dir(), *names);
    free(list);
    list = longer;
  }
  return list;
}

/* The <article> of finding i, as a string of its own (NULL if absent). */
static char *article(const char *page, size_t i) {
  char *id = wl_test_format("id=\"f%zu\"", i);
  const char *start = strstr(page, id);
  free(id);
  if (!start) return NULL;
  const char *end = strstr(start, "</article>");
  size_t n = end ? (size_t)(end - start) : strlen(start);
  char *s = malloc(n + 1);
  memcpy(s, start, n);
  s[n] = 0;
  return s;
}

static bool contains_number(const char *text, double value) {
  char *s = wl_test_format("%.4g ", value);
  bool found = strstr(text, s) != NULL;
  if (!found) fprintf(stderr, "'%s' not found\n", s);
  free(s);
  return found;
}

/* The K20c figure of a metric key resolved for sm_90, or NAN. */
static double k20c_value(const json_value *k20c, const char *key) {
  char paper[128];
  size_t n = strlen(key);
  if (n > 6 && strcmp(key + n - 6, ".sm_90") == 0) snprintf(paper, sizeof paper, "%.*s.sm_35", (int)(n - 6), key);
  else snprintf(paper, sizeof paper, "%s", key);
  const json_value *v = json_get(json_get(json_get(k20c, "measurements"), paper), "value");
  return v && v->type == JSON_NUMBER ? v->number : NAN;
}

/* What the drawing's caption must say, from the analysis' own message:
 * S_1 "N-way", G_3 "N sectors per warp request", C_3 "N distinct". */
static void check_drawn_degree(const json_value *f, const char *art) {
  const char *rule = json_string_or(json_get(f, "rule"), "");
  const char *message = json_string_or(json_get(f, "message"), "");
  const char *at;
  int n;
  char *want = NULL;
  if (!strcmp(rule, "S_1") && sscanf(message, "%d-way", &n) == 1)
    want = wl_test_format("%d-way bank conflict, %d wavefronts", n, n);
  else if (!strcmp(rule, "G_3") && (at = strstr(message, ", ")) && sscanf(at, ", %d sectors per warp", &n) == 1)
    want = wl_test_format(": %d sectors in", n);
  else if (!strcmp(rule, "C_3") && (at = strstr(message, ": ")) && sscanf(at, ": %d distinct", &n) == 1)
    want = wl_test_format(": %d distinct words", n);
  if (!want) return;
  bool drawn = strstr(art, want) != NULL;
  if (!drawn) fprintf(stderr, "finding '%s': the drawing does not say '%s'\n", message, want);
  CHECK(drawn);
  free(want);
}

static void check_finding(const json_value *f, size_t i, const char *page, const json_value *k20c) {
  char *art = article(page, i);
  CHECK(art != NULL);
  if (!art) return;
  char *rule = wl_test_format("data-rule=\"%s\"", json_string_or(json_get(f, "rule"), ""));
  CHECK(strstr(art, rule) != NULL);
  bool drawn = json_get(f, "warp") && json_get(f, "warp")->type == JSON_OBJECT;
  bool fix_drawn = json_get(f, "fixed_warp") && json_get(f, "fixed_warp")->type == JSON_OBJECT;
  char *written = wl_test_format("data-finding=\"%zu\" data-state=\"%s\"><figcaption>", i, drawn ? "written" : "none");
  char *fixed = wl_test_format("data-finding=\"%zu\" data-state=\"%s\"><figcaption>", i, fix_drawn ? "fixed" : "none");
  CHECK(strstr(art, written) != NULL);
  CHECK(strstr(art, fixed) != NULL);
  int svgs = 0;
  for (const char *p = art; (p = strstr(p, "<svg class=\"warp\"")); p++) svgs++;
  CHECK(svgs == drawn + fix_drawn);
  check_drawn_degree(f, art);
  const json_value *metrics = json_get(json_get(f, "estimate"), "metrics");
  bool paper_states = false;
  for (size_t m = 0; metrics && m < metrics->count; m++) {
    const json_value *metric = json_at(metrics, m);
    const json_value *value = json_get(metric, "value");
    if (value && value->type == JSON_NUMBER) CHECK(contains_number(art, value->number));
    double paper = k20c_value(k20c, json_string_or(json_get(metric, "key"), ""));
    if (!isnan(paper)) CHECK(contains_number(art, paper));
    paper_states |= !isnan(paper);
  }
  /* The K20c column only where the paper states a value; else one line
   * says it states none (never a column of "not stated"). */
  bool column = strstr(art, "K20c, the paper") != NULL;
  bool said = strstr(art, "The paper states none of these values for the K20c.") != NULL;
  if (metrics && metrics->count) CHECK(column != said);
  if (paper_states) CHECK(column);
  CHECK(strstr(art, "not stated in the paper") == NULL || column);
  free(rule);
  free(written);
  free(fixed);
  free(art);
}

static void test_page_matches_json(void) {
  static const char *const names[] = {"s1_positive.cu", "c3_positive.cu", "g3_positive.cu", "l_positive.cu",
                                      "s5_positive.cu", "pointers_positive.cu", "s1_negative.cu", NULL};
  char *files = fixture_list(names);
  char *args = wl_test_format("check --shim --gpu '%s' --format=json %s", profile, files);
  int status;
  char *cmd = wl_test_format("'%s' %s 2>/dev/null", warplint, args);
  json_value *doc = wl_test_run_json(cmd, &status);
  free(cmd);
  free(args);
  args = wl_test_format("check --shim --gpu '%s' --format=html %s", profile, files);
  int html_status;
  char *page = run(args, "2>/dev/null", &html_status);
  CHECK(html_status == 1);
  CHECK(strncmp(page, "<!DOCTYPE html>", 15) == 0);
  char *path = wl_test_format("%s/benchmarks/data/k20c-paper.json", test_source_dir());
  char err[256];
  json_value *k20c = json_parse_file(path, err, sizeof err);
  CHECK(doc != NULL && k20c != NULL);
  const json_value *findings = json_get(doc, "findings");
  CHECK(findings && findings->count >= 20);
  size_t compared_k20c = 0;
  for (size_t i = 0; findings && i < findings->count; i++) {
    check_finding(json_at(findings, i), i, page, k20c);
    const json_value *metrics = json_get(json_get(json_at(findings, i), "estimate"), "metrics");
    for (size_t m = 0; metrics && m < metrics->count; m++)
      compared_k20c += !isnan(k20c_value(k20c, json_string_or(json_get(json_at(metrics, m), "key"), "")));
  }
  CHECK(compared_k20c > 0);  /* some K20c figure was looked for (S_5: latency.global) */
  char *beyond = wl_test_format("id=\"f%zu\"", findings ? findings->count : 0);
  CHECK(strstr(page, beyond) == NULL);
  const json_value *arrays = json_get(doc, "arrays");
  CHECK(arrays && arrays->count > 0);
  for (size_t a = 0; arrays && a < arrays->count; a++) {
    char *kernel = wl_test_format("<h4>kernel <code>%s</code></h4>", json_string_or(json_get(json_at(arrays, a), "kernel"), ""));
    char *row = wl_test_format("<tr><td><code>%s</code></td><td>%s</td>",
                               json_string_or(json_get(json_at(arrays, a), "array"), ""),
                               json_string_or(json_get(json_at(arrays, a), "space"), ""));
    CHECK(strstr(page, kernel) != NULL);
    CHECK(strstr(page, row) != NULL);
    free(kernel);
    free(row);
  }
  free(beyond);
  free(path);
  json_free(k20c);
  json_free(doc);
  free(page);
  free(args);
  free(files);
}

/* Every '<' of the page opens markup (text has them escaped): no tag names
 * a resource to fetch. Links are in-page (#...) or data: (the empty icon);
 * "http" appears only as the SVG namespace, a name that is never fetched,
 * and in the http-equiv of the policy. The stylesheet imports nothing. */
static bool fetches_nothing(const char *page) {
  bool ok = strstr(page, "url(") == NULL && strstr(page, "@import") == NULL;
  for (const char *p = page; (p = strchr(p, '<')); p++) {
    size_t n = strcspn(p, ">");
    char *tag = malloc(n + 1);
    memcpy(tag, p, n);
    tag[n] = 0;
    const char *href = strstr(tag, "href=\"");
    const char *http = strstr(tag, "http");
    bool bad = strstr(tag, "src=") != NULL ||
               (href && strncmp(href + 6, "#", 1) != 0 && strncmp(href + 6, "data:", 5) != 0) ||
               (http && strncmp(http, "http://www.w3.org/2000/svg\"", 27) != 0 && strncmp(http, "http-equiv", 10) != 0);
    if (bad) fprintf(stderr, "a tag that may fetch: %s>\n", tag);
    ok &= !bad;
    free(tag);
  }
  return ok;
}

/* Source comments, strings and the file name are text, never markup; the
 * page loads nothing (its policy forbids it, and it names no resource). */
static void test_escaping_and_no_fetch(void) {
  char *dir = wl_test_format("%s/inject<b>&'", scratch);
  mkdir(dir, 0755);
  char *path = wl_test_format("%s/k<script>.cu", dir);
  static const char source[] =
    "// </code></div></article><script>alert(1)</script><img src=x onerror=alert(2)>\n"
    "__global__ void k(float *out, const float *in) {\n"
    "  __shared__ float tile[32][32];  // <style>body{display:none}</style> &amp; &lt;\n"
    "  tile[threadIdx.x][0] = in[threadIdx.x];  /* \"><script>alert(3)</script> */\n"
    "  __syncthreads();\n"
    "  out[threadIdx.x] = tile[0][threadIdx.x];\n"
    "}\n";
  CHECK(wl_test_write_file(path, source, sizeof source - 1));
  char *quoted = wl_test_format("check --shim --format=html \"%s\"", path);
  int status;
  char *page = run(quoted, "2>/dev/null", &status);
  CHECK(status == 1);
  CHECK(strstr(page, "<script") == NULL && strstr(page, "<img") == NULL && strstr(page, "<style>body") == NULL);
  CHECK(strstr(page, "&lt;/code&gt;&lt;/div&gt;&lt;/article&gt;&lt;script&gt;alert(1)&lt;/script&gt;") != NULL);
  CHECK(strstr(page, "&amp;amp; &amp;lt;") != NULL);
  CHECK(strstr(page, "&quot;&gt;&lt;script&gt;alert(3)") != NULL);
  CHECK(strstr(page, "inject&lt;b&gt;&amp;&#39;/k&lt;script&gt;.cu") != NULL);
  CHECK(strstr(page, "content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:\"") != NULL);
  CHECK(fetches_nothing(page));
  free(page);
  free(quoted);
  free(path);
  free(dir);
}

static bool leftover(const char *prefix) {
  DIR *d = opendir(scratch);
  bool found = false;
  struct dirent *e;
  while (d && (e = readdir(d)))
    found |= strncmp(e->d_name, prefix, strlen(prefix)) == 0 && strcmp(e->d_name, prefix) != 0;
  if (d) closedir(d);
  return found;
}

static void test_output_file(void) {
  char *fixture = wl_test_format("'%s/tests/advisor/fixtures/s1_positive.cu'", test_source_dir());
  char *target = wl_test_format("%s/report.html", scratch);
  remove(target);
  char *args = wl_test_format("check --shim --format=html -o '%s' %s", target, fixture);
  int status;
  char *out = run(args, "2>&1", &status);
  CHECK(status == 1);
  CHECK(out[0] == 0);   /* the page went to the file, nothing to stdout */
  size_t len;
  char *text = read_text_file(target, &len);
  CHECK(text && strncmp(text, "<!DOCTYPE html>", 15) == 0 && strstr(text, "</html>\n") == text + len - 8);
  struct stat st;
  CHECK(stat(target, &st) == 0 && (st.st_mode & 0044) != 0);  /* readable as any file written under umask */
  free(text);
  free(out);
  free(args);

  args = wl_test_format("check --shim --format=html -o '%s/no-such-dir/report.html' %s", scratch, fixture);
  out = run(args, "2>&1 >/dev/null", &status);
  CHECK(status == 2);
  CHECK(strstr(out, "no-such-dir/report.html") != NULL && strchr(out, '\n') == out + strlen(out) - 1);
  free(out);
  free(args);

  char *dir = wl_test_format("%s/a-folder", scratch);
  mkdir(dir, 0755);
  args = wl_test_format("check --shim --format=html -o '%s' %s", dir, fixture);
  out = run(args, "2>&1 >/dev/null", &status);
  CHECK(status == 2);
  CHECK(strstr(out, "cannot write") != NULL);
  CHECK(!leftover("a-folder"));   /* the temporary file is gone */
  free(out);
  free(args);

  out = run("check --shim --format=json -o x.html", "2>&1", &status);
  CHECK(status == 2 && strstr(out, "-o is for --format=html") != NULL);
  free(out);
  out = run("check --shim --format=json --draw x.cu", "2>&1", &status);
  CHECK(status == 2 && strstr(out, "--draw is for the text output") != NULL);
  free(out);
  free(dir);
  free(target);
  free(fixture);
}

/* A line of the text drawing: its title or one of its rows. */
static bool drawing_line(const char *line) {
  static const char *const starts[] = {"  warp as written:", "  warp as written, drawn for ", "  after the fix",
                                       "    lane ", "    byte ",
                                       "    bank ", "    ways ", "    sector ", "    word ", NULL};
  for (const char *const *s = starts; *s; s++)
    if (strncmp(line, *s, strlen(*s)) == 0) return true;
  return false;
}

/* out without its drawing lines. */
static char *without_drawings(const char *out) {
  char *kept = malloc(strlen(out) + 1), *k = kept;
  for (const char *p = out; *p;) {
    size_t n = strcspn(p, "\n") + (p[strcspn(p, "\n")] == '\n');
    if (!drawing_line(p)) {
      memcpy(k, p, n);
      k += n;
    }
    p += n;
  }
  *k = 0;
  return kept;
}

static void test_draw_text(void) {
  char *args = wl_test_format("check --shim '%s/tests/advisor/fixtures/s1_positive.cu' "
                              "'%s/tests/advisor/fixtures/g3_positive.cu'", test_source_dir(), test_source_dir());
  int status, draw_status;
  char *plain = run(args, "2>&1", &status);
  char *with_draw = wl_test_format("%s --draw", args);
  char *drawn = run(with_draw, "2>&1", &draw_status);
  CHECK(status == 1 && draw_status == 1);
  CHECK(strstr(plain, "warp as written") == NULL);
  char *stripped = without_drawings(drawn);
  CHECK_STR(stripped, plain);   /* --draw adds lines and changes none */
  CHECK(strstr(drawn, "  warp as written: 4-byte shared accesses, 32 lanes active: 32-way bank conflict, "
                      "32 wavefronts\n") != NULL);
  CHECK(strstr(drawn, "  after the fix: 4-byte shared accesses, 32 lanes active: conflict-free") != NULL);
  CHECK(strstr(drawn, "    bank       0    0    0    0    0    0    0    0\n") != NULL);
  CHECK(strstr(drawn, "    bank       0    1    2    3    4    5    6    7\n") != NULL);
  CHECK(strstr(drawn, "    sector ") != NULL);
  /* Lanes N elements apart (N a run-time size): drawn for a stated example. */
  CHECK(strstr(drawn, "  warp as written, drawn for N = 32 as an example (the offsets depend on run-time sizes; "
                      "any larger size draws the same sectors and lines): 4-byte global accesses, 32 lanes active: "
                      "32 sectors in 32 128-byte lines") != NULL);
  CHECK(strstr(drawn, "    byte       0  128  256  384  512  640  768  896\n") != NULL);
  free(stripped);
  free(drawn);
  free(with_draw);
  free(plain);
  free(args);
}

static void test_explain_draws(void) {
  int status;
  char *out = run("explain S_1", "2>&1", &status);
  CHECK(status == 0);
  CHECK(strstr(out, "\nwarp drawings:\nbad example, S_1_bad.cu:") != NULL);
  CHECK(strstr(out, "  warp as written: 4-byte shared accesses, 32 lanes active: 32-way bank conflict") != NULL);
  CHECK(strstr(out, "good example, S_1_good.cu: warplint finds no S_1\n") != NULL);
  CHECK(strstr(out, "  the bad example's warp after the fix: 4-byte shared accesses, 32 lanes active: "
                    "conflict-free") != NULL);
  free(out);
  out = run("explain C_3", "2>&1", &status);
  CHECK(status == 0);
  CHECK(strstr(out, "32 distinct words, served one after another") != NULL);
  /* C_3's fix moves the table to global memory: the same words, in one
   * request, priced there; never a broadcast (that would change the result). */
  CHECK(strstr(out, "one word, a broadcast to every lane") == NULL);
  CHECK(strstr(out, "  the bad example's warp after the fix (the table in global memory, read-only path): 4-byte "
                    "global accesses, 32 lanes active: 4 sectors in 1 128-byte line") != NULL);
  CHECK(strstr(out, "cycles as written (warp.constant.distinct_32), ") != NULL);
  CHECK(strstr(out, "cycles after the fix (warp.global.distinct_32)\n") != NULL);
  CHECK(strstr(out, "// expect:") == NULL);   /* the examples without the tests' markers */
  free(out);
  out = run("explain G_1", "2>&1", &status);   /* advice: no finding to draw */
  CHECK(status == 0 && strstr(out, "warp drawings") == NULL);
  free(out);
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s WARPLINT SCRATCH_DIR\n", argv[0]);
    return 2;
  }
  warplint = argv[1];
  scratch = argv[2];
  mkdir(scratch, 0755);
  profile = wl_test_format("%s/tests/advisor/profiles/synthetic-sm90.json", test_source_dir());
  test_page_matches_json();
  test_escaping_and_no_fetch();
  test_output_file();
  test_draw_text();
  test_explain_draws();
  free(profile);
  return test_summary();
}
