/* --format=html: one self-contained page (inline CSS, no script, no
 * network: its Content-Security-Policy forbids every fetch) for a classroom
 * projector and for print. Per file: the kernels' array inventory, then the
 * source with each finding in place; per finding, its warp drawn as SVG
 * (lanes, the bank, sector or word each hits, coloured by conflict degree or
 * sectors touched, from draw.c's map) above the same warp after the fix,
 * and its cost in the chosen profile next to the paper's K20c figure.
 * Every piece of text from a source file or a message goes through
 * put_text, which escapes it. */
#include "warplint.h"
#include "verify.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const class_names[] = {"read-only", "temporal", "reusable", "written"};
static const char *const level_class[] = {"l0", "l1", "l2", "l3", "l4"};

/* Large type, strong contrast and wide drawings for a projector; the print
 * rules keep each finding on one page and the colours in the drawings. */
static const char stylesheet[] =
  ":root{--ink:#111;--muted:#555;--rule:#bbb;--paper:#fff}\n"
  "body{font:18px/1.45 system-ui,'DejaVu Sans',sans-serif;color:var(--ink);background:var(--paper);"
  "margin:0 auto;max-width:90rem;padding:1rem 2rem}\n"
  "h1{font-size:1.9rem;margin:.2rem 0}h2{font-size:1.5rem;border-bottom:3px solid var(--ink);margin-top:2.5rem}\n"
  "h3{font-size:1.2rem;margin:1.5rem 0 .4rem}h4{margin:0 0 .3rem;font-size:1.05rem}\n"
  "code,.source{font-family:ui-monospace,'DejaVu Sans Mono',monospace}\n"
  "table{border-collapse:collapse;margin:.4rem 0}th,td{border:1px solid var(--rule);padding:.2rem .55rem;"
  "text-align:left;vertical-align:top}th{background:#eee}\n"
  "td.num{text-align:right;font-variant-numeric:tabular-nums}\n"
  ".meta{color:var(--muted)}.summary{font-weight:600}\n"
  ".source{font-size:15px;line-height:1.35;border:1px solid var(--rule)}\n"
  ".line{display:flex}.line .n{flex:0 0 4.2em;text-align:right;padding-right:.8em;color:var(--muted)}\n"
  ".line code{white-space:pre-wrap;word-break:break-all;tab-size:4;flex:1}\n"
  ".line.hit{background:#fff0d9}mark{background:#ffb74d;color:#000}\n"
  ".finding{font:17px/1.4 system-ui,'DejaVu Sans',sans-serif;border-left:7px solid #d84315;"
  "background:#fafafa;margin:.35rem 0 .9rem 4.2em;padding:.5rem 1rem}\n"
  ".finding.note{border-left-color:#1565c0}.sev{text-transform:uppercase;font-weight:700;color:#b71c1c}\n"
  ".finding.note .sev{color:#0d47a1}.rule{font-weight:700}\n"
  "figure.drawing{margin:.4rem 0 .8rem}figure.drawing figcaption{font-size:.95rem}\n"
  "svg.warp{width:100%;height:auto;display:block;background:#fff}\n"
  "svg text{font-family:system-ui,'DejaVu Sans',sans-serif;fill:#000}\n"
  ".l0{fill:#b9e4bb}.l1{fill:#fff176}.l2{fill:#ffb74d}.l3{fill:#ef6c6c}.l4{fill:#b71c1c}\n"
  ".w0{stroke:#2e7d32}.w1{stroke:#b59b00}.w2{stroke:#e65100}.w3{stroke:#c62828}.w4{stroke:#7f0000}\n"
  "svg .box{stroke:#333;stroke-width:1}svg .wire{stroke-width:1.3;fill:none}\n"
  "svg .off{fill:#eee}svg text.on4{fill:#fff}.nowarp{color:var(--muted);font-style:italic}\n"
  ".legend span{display:inline-block;padding:.05rem .6rem;margin-right:.3rem;border:1px solid #333}\n"
  "nav ol{columns:2 28rem}\n"
  "@media print{body{font-size:10pt;max-width:none;padding:0}.source{font-size:8.5pt}"
  ".finding{font-size:9.5pt;break-inside:avoid;margin-left:2em}h2{break-before:page}"
  "nav{break-after:page}a{color:inherit;text-decoration:none}"
  "*{-webkit-print-color-adjust:exact;print-color-adjust:exact}}\n"
  "@page{margin:1.5cm}\n";

/* ---- escaping ---- */

/* Text as HTML: the five markup characters become entities, other control
 * characters (a binary file's bytes) U+FFFD; nothing in a source comment or
 * a message can open a tag or leave an attribute. */
static void put_text_n(FILE *out, const char *s, size_t n) {
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    switch (c) {
    case '&': fputs("&amp;", out); break;
    case '<': fputs("&lt;", out); break;
    case '>': fputs("&gt;", out); break;
    case '"': fputs("&quot;", out); break;
    case '\'': fputs("&#39;", out); break;
    default:
      if ((c < 0x20 && c != '\t' && c != '\n') || c == 0x7f) fputs("&#xFFFD;", out);
      else fputc(c, out);
    }
  }
}

static void put_text(FILE *out, const char *s) { put_text_n(out, s ? s : "", s ? strlen(s) : 0); }

/* ---- the warp drawing (SVG) ---- */

#define LANE_X0 78     /* left margin of the lane row, room for the row labels */
#define LANE_STEP 28   /* one lane */

static double lane_x(int lane) { return LANE_X0 + LANE_STEP * lane + LANE_STEP / 2.0; }

/* Targets share the lanes' width: banks sit under the lanes of the same
 * number, sectors and words are spread evenly. */
static double target_step(const wl_warp_map *m) {
  if (strcmp(m->target_name, "bank") == 0 || m->target_count <= 32) return LANE_STEP;
  return 32.0 * LANE_STEP / m->target_count;
}

static double target_x(const wl_warp_map *m, int t) {
  double step = target_step(m), row = step * (strcmp(m->target_name, "bank") == 0 ? 32 : m->target_count);
  return LANE_X0 + (32 * LANE_STEP - row) / 2 + step * t + step / 2;
}

static void svg_label(FILE *out, double x, double y, const char *anchor, int size, const char *cls,
                      const char *text) {
  fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" font-size=\"%d\"%s%s%s>", x, y, anchor, size,
          cls ? " class=\"" : "", cls ? cls : "", cls ? "\"" : "");
  put_text(out, text);
  fputs("</text>", out);
}

/* The offsets row: horizontal when short, turned a quarter when long. */
static int offsets_height(const wl_warp *w) {
  int digits = 1;
  for (int l = 0; l < 32; l++) {
    int d = snprintf(NULL, 0, "%lld", (w->active >> l & 1) ? w->offset[l] : 0);
    if (d > digits) digits = d;
  }
  return digits <= 4 ? 0 : 7 * digits;
}

static void svg_lanes(FILE *out, const wl_warp *w, const wl_warp_map *m, int turned) {
  svg_label(out, 4, 21, "start", 12, NULL, "lane");
  svg_label(out, 4, 48, "start", 12, NULL, "byte");
  for (int l = 0; l < 32; l++) {
    bool on = w->active >> l & 1;
    char text[32];
    fprintf(out, "<rect class=\"box %s\" x=\"%.1f\" y=\"6\" width=\"%d\" height=\"22\"/>",
            on ? level_class[m->level[l]] : "off", lane_x(l) - 12, 24);
    snprintf(text, sizeof text, "%d", l);
    svg_label(out, lane_x(l), 21, "middle", 11, on && m->level[l] == 4 ? "on4" : NULL, text);
    if (!on) continue;
    snprintf(text, sizeof text, "%lld", w->offset[l]);
    if (!turned) {
      svg_label(out, lane_x(l), 48, "middle", strlen(text) <= 3 ? 11 : 9, NULL, text);
      continue;
    }
    fprintf(out, "<g transform=\"rotate(90 %.1f 38)\">", lane_x(l) - 3);
    svg_label(out, lane_x(l) - 3, 38, "start", 10, NULL, text);
    fputs("</g>", out);
  }
}

/* Wires from each active lane to every target its bytes fall in. */
static void svg_wires(FILE *out, const wl_warp *w, const wl_warp_map *m, double top, double bottom) {
  for (int l = 0; l < 32; l++) {
    if (!(w->active >> l & 1)) continue;
    for (int k = 0; k < m->span[l]; k++) {
      int t = strcmp(m->target_name, "bank") == 0 ? (m->first[l] + k) % 32 : m->first[l] + k;
      fprintf(out, "<path class=\"wire w%d\" d=\"M%.1f %.1fL%.1f %.1f\"/>", m->level[l], lane_x(l), top,
              target_x(m, t), bottom);
    }
  }
}

/* The bank (sector, word) row, the load of each, and for sectors the
 * 128-byte lines they group into. */
static void svg_targets(FILE *out, const wl_warp_map *m, double y) {
  bool banks = strcmp(m->target_name, "bank") == 0;
  double step = target_step(m), box = step > 6 ? step - 4 : step;
  svg_label(out, 4, y + 15, "start", 12, NULL, m->target_name);
  svg_label(out, 4, y + 36, "start", 12, NULL, banks ? "words" : "lanes");
  for (int t = 0; t < m->target_count; t++) {
    int level = wl_warp_level(m, t);
    bool used = !banks || m->target_load[t] > 0;
    char text[32];
    fprintf(out, "<rect class=\"box %s\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"22\"/>",
            used ? level_class[level] : "off", target_x(m, t) - box / 2, y, box);
    if (step >= 14) {
      snprintf(text, sizeof text, "%lld", m->target_id[t]);
      svg_label(out, target_x(m, t), y + 15, "middle", step >= 24 ? 10 : 8, used && level == 4 ? "on4" : NULL, text);
    }
    if (used && step >= 14) {
      snprintf(text, sizeof text, "%d", m->target_load[t]);
      svg_label(out, target_x(m, t), y + 36, "middle", 10, NULL, text);
    }
  }
  if (!strcmp(m->target_name, "sector")) {
    for (int t = 0; t < m->target_count;) {
      int end = t;
      while (end + 1 < m->target_count && m->target_id[end + 1] / 4 == m->target_id[t] / 4) end++;
      double x0 = target_x(m, t) - step / 2 + 1, x1 = target_x(m, end) + step / 2 - 1;
      char text[48];
      fprintf(out, "<path class=\"wire w0\" d=\"M%.1f %.1fV%.1fH%.1fV%.1f\"/>", x0, y + 42, y + 47, x1, y + 42);
      snprintf(text, sizeof text, x1 - x0 > 40 ? "line %lld" : "%lld", m->target_id[t] / 4);
      svg_label(out, (x0 + x1) / 2, y + 60, "middle", 10, NULL, text);
      t = end + 1;
    }
  }
}

/* One warp as SVG inside a figure; data-finding and data-state let the
 * browser test find every drawing. */
static void html_warp(FILE *out, const wl_warp *w, const char *space, size_t index, bool fixed,
                      const char *measured) {
  wl_warp_map m;
  const char *state = fixed ? "after the fix" : "as written";
  fprintf(out, "<figure class=\"drawing\" data-finding=\"%zu\" data-state=\"%s\">", index, fixed ? "fixed" : "written");
  if (!wl_warp_map_of(w, space, &m)) {
    fprintf(out, "<figcaption><b>%s</b>: not drawn (elements wider than %d bytes)</figcaption></figure>", state,
            WL_MAP_WIDEST);
    return;
  }
  char summary[320];
  wl_warp_summary(&m, space, summary, sizeof summary);
  int turned = offsets_height(w);
  double wires_top = 56 + turned, targets_y = wires_top + 70;
  double height = targets_y + (strcmp(m.target_name, "sector") == 0 ? 68 : 46);
  fprintf(out, "<figcaption><b>%s</b>: ", state);
  if (w->example[0]) {
    fputs("<i>drawn for ", out);
    put_text(out, w->example);
    fputs(wl_example_scales(w) ? " as an example (the offsets depend on run-time sizes; any larger size draws the "
                                 "same sectors and lines)</i>: "
                               : " as an example (the offsets depend on run-time sizes)</i>: ", out);
  }
  put_text(out, summary);
  if (measured && *measured) { fputs("; <b class=\"measured\">", out); put_text(out, measured); fputs("</b>", out); }
  fprintf(out, "</figcaption><svg class=\"warp\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d %.0f\" "
               "role=\"img\" aria-label=\"", LANE_X0 + 32 * LANE_STEP + 6, height);
  put_text(out, summary);
  fputs("\">", out);
  svg_lanes(out, w, &m, turned);
  svg_wires(out, w, &m, wires_top, targets_y);
  svg_targets(out, &m, targets_y);
  fputs("</svg></figure>\n", out);
}

static void html_no_warp(FILE *out, const wl_finding *f, size_t index, bool fixed) {
  fprintf(out, "<figure class=\"drawing nowarp\" data-finding=\"%zu\" data-state=\"none\"><figcaption><b>%s</b>: "
               "not drawn: ", index, fixed ? "after the fix" : "as written");
  put_text(out, wl_warp_missing(f, fixed));
  char measured[200];
  wl_verify_caption(f, measured, sizeof measured);
  if (!fixed && *measured) { fputs("; <b class=\"measured\">", out); put_text(out, measured); fputs("</b>", out); }
  fputs("</figcaption></figure>\n", out);
}

/* ---- cost, chosen profile against the paper ---- */

/* A key resolved for the chosen architecture (….sm_90) as the K20c's. */
static void paper_key(const char *key, const char *arch, const char *paper_arch, char *out, size_t size) {
  size_t k = strlen(key), a = strlen(arch);
  if (k > a + 1 && key[k - a - 1] == '.' && strcmp(key + k - a, arch) == 0)
    snprintf(out, size, "%.*s%s", (int)(k - a), key, paper_arch);
  else
    snprintf(out, size, "%s", key);
}

static void metric_cell(FILE *out, const wl_metric *m, const char *missing, const char *source) {
  if (!m->present) {
    fputs("<td class=\"meta\">", out);
    put_text(out, missing);
    fputs("</td>", out);
    return;
  }
  fprintf(out, "<td class=\"num\">%.4g ", m->value);
  put_text(out, m->unit);
  if (source) {
    fputs("<br><small class=\"meta\">", out);
    put_text(out, source);
    fputs("</small>", out);
  }
  fputs("</td>", out);
}

/* "H100 (h100-sxm)", or the file's name alone when it is also the short one. */
static void put_profile_name(FILE *out, const wl_options *opt) {
  if (!opt->profile_name) {
    fputs("no profile", out);
    return;
  }
  if (opt->profile_short && strcmp(opt->profile_short, opt->profile_name) != 0) {
    put_text(out, opt->profile_short);
    fputs(" (", out);
    put_text(out, opt->profile_name);
    fputs(")", out);
  } else {
    put_text(out, opt->profile_name);
  }
}

/* The rows of a finding's cost table: its two metrics, and for a fix that
 * moves the data elsewhere (C_3) what the access costs there. */
static int cost_rows(const wl_finding *f, const wl_options *opt, wl_metric *rows, const char **labels) {
  int n = 0;
  for (int i = 0; i < f->metric_count && n < 3; i++, n++) {
    rows[n] = f->metrics[i];
    labels[n] = NULL;
  }
  char key[64];
  if (n < 3 && wl_fixed_metric(f, key, sizeof key)) {
    wl_metric_lookup(opt, key, &rows[n]);
    labels[n++] = "after the fix";
  }
  return n;
}

/* The cost table: each metric on the chosen profile and on the paper's
 * K20c. Where the paper states none of them, the K20c column is left out
 * and that is said once under the table. */
static void html_cost(FILE *out, const wl_finding *f, const wl_options *opt, const wl_options *paper) {
  wl_metric rows[3], theirs[3];
  const char *labels[3];
  int n = cost_rows(f, opt, rows, labels);
  if (n == 0) return;
  const char *paper_arch = json_string_or(json_path(paper->profile, "gpu.arch"), "sm_35");
  char keys[3][96];
  bool paper_states = false;
  for (int i = 0; i < n; i++) {
    paper_key(rows[i].key, opt->arch, paper_arch, keys[i], sizeof keys[i]);
    wl_metric_lookup(paper, keys[i], &theirs[i]);
    paper_states |= theirs[i].present;
  }
  bool paper_column = paper_states || !paper->profile;
  fputs("<table class=\"cost\"><tr><th>measured quantity</th><th>", out);
  put_profile_name(out, opt);
  if (paper_column) {
    fputs("</th><th>K20c, the paper (", out);
    put_text(out, paper->profile_name ? paper->profile_name : "not loaded");
    fputs(")", out);
  }
  fputs("</th></tr>\n", out);
  for (int i = 0; i < n; i++) {
    char missing[160];
    fputs("<tr><td><code>", out);
    put_text(out, rows[i].key);
    fputs("</code>", out);
    if (labels[i]) {
      fputs(" <small class=\"meta\">(", out);
      put_text(out, labels[i]);
      fputs(")</small>", out);
    }
    fputs("</td>", out);
    snprintf(missing, sizeof missing, "not measured in %s", opt->profile_name ? opt->profile_name : "any profile");
    metric_cell(out, &rows[i], missing, NULL);
    if (paper_column) {
      const json_value *entry = json_get(json_get(paper->profile, "measurements"), keys[i]);
      metric_cell(out, &theirs[i], paper->profile ? "not stated in the paper" : "k20c-paper profile not found",
                  json_string_or(json_get(entry, "source"), NULL));
    }
    fputs("</tr>\n", out);
  }
  fputs("</table>\n", out);
  if (!paper_column) fputs("<p class=\"meta paper-none\">The paper states none of these values for the K20c.</p>\n", out);
}

/* ---- one finding ---- */

static void html_finding(FILE *out, const wl_finding *f, size_t index, const wl_options *opt,
                         const wl_options *paper) {
  const json_value *rule = wl_rule(f->rule);
  fprintf(out, "<article class=\"finding %s\" id=\"f%zu\" data-rule=\"", strcmp(f->severity, "note") ? "warning" : "note",
          index);
  put_text(out, f->rule);
  fputs("\"><h4><span class=\"sev\">", out);
  put_text(out, f->severity);
  fputs("</span> <span class=\"rule\">", out);
  put_text(out, f->rule);
  fputs("</span> ", out);
  put_text(out, json_string_or(json_get(rule, "title"), ""));
  fprintf(out, " <span class=\"meta\">(line %u, column %u; kernel <code>", f->line, f->column);
  put_text(out, f->kernel);
  fputs("</code>)</span></h4>\n<p>", out);
  put_text(out, f->message);
  fputs("</p>\n<div class=\"warps\">", out);
  char measured[200];
  wl_verify_caption(f, measured, sizeof measured);
  if (f->warp.known) html_warp(out, &f->warp, f->space, index, false, measured);
  else html_no_warp(out, f, index, false);
  const char *fixed_space;
  const wl_warp *fixed = wl_fixed_warp(f, &fixed_space);
  if (fixed) html_warp(out, fixed, fixed_space, index, true, NULL);
  else html_no_warp(out, f, index, true);
  fputs("</div>\n", out);
  html_cost(out, f, opt, paper);
  if (f->note_count || f->fix_count || f->confirmed_set) fputs("<ul class=\"notes\">", out);
  for (int n = 0; n < f->note_count; n++) {
    fprintf(out, "<li>line %u: ", f->note_line[n]);
    put_text(out, f->notes[n]);
    fputs("</li>", out);
  }
  for (int x = 0; x < f->fix_count; x++) {
    fprintf(out, "<li>fix-it: line %u, column %u: replace %u bytes with <code>", f->fixes[x].line,
            f->fixes[x].column, f->fixes[x].length);
    put_text(out, f->fixes[x].replacement);
    fputs("</code></li>", out);
  }
  if (f->confirmed_set) fprintf(out, "<li>ptxas %s it</li>", f->confirmed ? "confirms" : "does not confirm");
  if (f->note_count || f->fix_count || f->confirmed_set) fputs("</ul>\n", out);
  fputs("</article>\n", out);
}

/* ---- per file: inventory, source with findings ---- */

static void html_kernel_usage(FILE *out, const wl_file_result *r, const char *kernel) {
  for (size_t u = 0; u < r->usage_count; u++) {
    const wl_kernel_usage *k = &r->usage[u];
    if (strcmp(k->kernel, kernel) != 0) continue;
    fprintf(out, "<p class=\"meta\">ptxas: %d registers, %d bytes local (stack), %d bytes spill stores, "
                 "%d bytes spill loads, %d bytes shared</p>\n", k->registers, k->local_bytes, k->spill_stores,
            k->spill_loads, k->shared_bytes);
  }
}

static void html_cell(FILE *out, const char *text) {
  fputs("<td>", out);
  put_text(out, text);
  fputs("</td>", out);
}

/* One table per kernel, kernels in the order their first array appears. */
static void html_inventory(FILE *out, const wl_file_result *r, size_t file) {
  if (r->array_count == 0) return;
  fputs("<h3>Arrays per kernel</h3>\n", out);
  for (size_t k = 0; k < r->array_count; k++) {
    const char *kernel = r->arrays[k].kernel;
    bool seen = false;
    for (size_t j = 0; j < k && !seen; j++) seen = strcmp(r->arrays[j].kernel, kernel) == 0;
    if (seen) continue;
    fputs("<h4>kernel <code>", out);
    put_text(out, kernel);
    fputs("</code></h4>\n", out);
    html_kernel_usage(out, r, kernel);
    fputs("<table class=\"arrays\"><tr><th>array</th><th>space</th><th>element</th><th>classes</th>"
          "<th>recommended</th><th>access patterns</th><th>declared</th></tr>\n", out);
    for (size_t j = k; j < r->array_count; j++) {
      const wl_array_info *a = &r->arrays[j];
      if (strcmp(a->kernel, kernel) != 0) continue;
      fputs("<tr><td><code>", out);
      put_text(out, a->array);
      fputs("</code></td>", out);
      html_cell(out, a->space);
      html_cell(out, a->element_type);
      fputs("<td>", out);
      for (int c = 0, n = 0; c < 4; c++)
        if (a->classes & (1 << c)) fprintf(out, "%s%s", n++ ? ", " : "", class_names[c]);
      fputs("</td>", out);
      html_cell(out, a->recommended);
      html_cell(out, a->patterns);
      fprintf(out, "<td><a href=\"#s%zu-L%u\">line %u</a></td></tr>\n", file, a->line, a->line);
    }
    fputs("</table>\n", out);
  }
}

typedef struct placed { unsigned line; size_t index; } placed;

static int by_line(const void *a, const void *b) {
  const placed *x = a, *y = b;
  if (x->line != y->line) return x->line < y->line ? -1 : 1;
  return x->index < y->index ? -1 : x->index > y->index;
}

/* One source line; the identifier at column marked when a finding is there. */
static void html_line(FILE *out, size_t file, unsigned number, const char *text, size_t len, unsigned column) {
  fprintf(out, "<div class=\"line%s\" id=\"s%zu-L%u\"><span class=\"n\">%u</span><code>", column ? " hit" : "",
          file, number, number);
  size_t at = column && column - 1 < len ? column - 1 : len, end = at;
  while (end < len && (end == at || (text[end] >= '0' && text[end] <= '9') || (text[end] >= 'A' && text[end] <= 'Z') ||
                       (text[end] >= 'a' && text[end] <= 'z') || text[end] == '_'))
    end++;
  put_text_n(out, text, at);
  if (end > at) {
    fputs("<mark>", out);
    put_text_n(out, text + at, end - at);
    fputs("</mark>", out);
  }
  put_text_n(out, text + end, len - end);
  fputs("</code></div>\n", out);
}

/* The source, each finding after its line; findings on no line of the
 * file (a line past its end) after the listing. first: the global number
 * of the file's first finding. */
static void html_source(FILE *out, const wl_file_result *r, size_t file, size_t first, const wl_options *opt,
                        const wl_options *paper) {
  size_t len;
  char *text = read_text_file(r->path, &len);
  placed *order = calloc(r->finding_count + 1, sizeof *order);
  for (size_t k = 0; k < r->finding_count; k++) order[k] = (placed){r->findings[k].line, k};
  qsort(order, r->finding_count, sizeof *order, by_line);
  size_t next = 0;
  fputs("<h3>Source</h3>\n", out);
  if (!text) {
    fputs("<p class=\"nowarp\">the source could not be read again: ", out);
    put_text(out, strerror(errno));
    fputs("</p>\n", out);
  } else {
    fputs("<div class=\"source\">\n", out);
    unsigned number = 1;
    for (const char *p = text; p < text + len; number++) {
      const char *eol = memchr(p, '\n', (size_t)(text + len - p));
      size_t n = eol ? (size_t)(eol - p) : (size_t)(text + len - p);
      unsigned column = next < r->finding_count && order[next].line == number
                            ? r->findings[order[next].index].column : 0;
      html_line(out, file, number, p, n, column);
      for (; next < r->finding_count && order[next].line <= number; next++)
        html_finding(out, &r->findings[order[next].index], first + order[next].index, opt, paper);
      p += n + (eol != NULL);
    }
    fputs("</div>\n", out);
  }
  for (; next < r->finding_count; next++)
    html_finding(out, &r->findings[order[next].index], first + order[next].index, opt, paper);
  free(order);
  free(text);
}

static void html_file(FILE *out, const wl_file_result *r, size_t file, size_t first, const wl_options *opt,
                      const wl_options *paper) {
  fprintf(out, "<section class=\"file\" id=\"s%zu\"><h2>", file);
  put_text(out, r->path);
  fputs("</h2>\n<p class=\"meta\">", out);
  if (r->failed) fputs("skipped: it does not parse", out);
  else fprintf(out, "%d %s analysed, %zu %s", r->kernels_analysed, r->kernels_analysed == 1 ? "kernel" : "kernels",
               r->finding_count, r->finding_count == 1 ? "finding" : "findings");
  fputs("</p>\n", out);
  if (r->error_count || r->note_count) fputs("<ul class=\"diagnostics\">", out);
  for (size_t e = 0; e < r->error_count; e++) {
    fputs("<li>", out);
    put_text(out, r->errors[e]);
    fputs("</li>", out);
  }
  for (size_t n = 0; n < r->note_count; n++) {
    fputs("<li class=\"meta\">", out);
    put_text(out, r->notes[n]);
    fputs("</li>", out);
  }
  if (r->error_count || r->note_count) fputs("</ul>\n", out);
  if (!r->failed) {
    html_inventory(out, r, file);
    html_source(out, r, file, first, opt, paper);
  }
  fputs("</section>\n", out);
}

/* ---- the page ---- */

/* The head of a message, up to its first ": " (the rest is evidence). */
static void put_headline(FILE *out, const char *message) {
  const char *cut = strstr(message, ": ");
  put_text_n(out, message, cut ? (size_t)(cut - message) : strlen(message));
}

static void html_contents(FILE *out, const wl_file_result *results, size_t count) {
  size_t total = 0;
  for (size_t i = 0; i < count; i++) total += results[i].finding_count;
  if (total == 0) return;
  fputs("<nav><h2>Findings</h2><ol>\n", out);
  for (size_t i = 0, index = 0; i < count; i++) {
    for (size_t k = 0; k < results[i].finding_count; k++, index++) {
      const wl_finding *f = &results[i].findings[k];
      fprintf(out, "<li><a href=\"#f%zu\"><span class=\"rule\">", index);
      put_text(out, f->rule);
      fputs("</span> ", out);
      put_text(out, results[i].path);
      fprintf(out, ":%u</a>: ", f->line);
      put_headline(out, f->message);
      fputs("</li>\n", out);
    }
  }
  fputs("</ol></nav>\n", out);
}

static void html_head(FILE *out, const wl_file_result *results, size_t count, const wl_options *opt,
                      const wl_options *paper) {
  fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
        "img-src data:\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        "<link rel=\"icon\" href=\"data:,\">\n<title>warplint: ", out);
  put_text(out, count == 1 ? results[0].path : "report");
  fprintf(out, "</title>\n<style>\n%s</style></head>\n<body>\n<header><h1>warplint report</h1>\n"
               "<p class=\"summary\">", stylesheet);
  char *summary = NULL;
  size_t size = 0;
  FILE *memory = open_memstream(&summary, &size);
  if (memory) {
    wl_print_summary(memory, results, count);
    fclose(memory);
    put_text_n(out, summary, strcspn(summary, "\n"));
  }
  free(summary);
  fputs("</p>\n<p class=\"meta\">Costs from the profile <b>", out);
  put_profile_name(out, opt);
  fputs("</b> (", out);
  put_text(out, opt->arch);
  fputs(") next to the paper's K20c figures (", out);
  put_text(out, paper->profile_name ? paper->profile_name : "k20c-paper profile not found");
  fputs("). Each drawing shows one warp: its 32 lanes, the byte each touches relative to the lowest "
        "(taken as aligned), and the shared-memory bank, 32-byte global sector or constant word it hits; "
        "the numbers under a bank count the distinct words it holds (the conflict degree), under a sector or "
        "word the lanes it serves.</p>\n<p class=\"legend\">Colour, times the ideal: "
        "<span style=\"background:#b9e4bb\">1</span>"
        "<span style=\"background:#fff176\">2</span><span style=\"background:#ffb74d\">3&ndash;4</span>"
        "<span style=\"background:#ef6c6c\">5&ndash;8</span>"
        "<span style=\"background:#b71c1c;color:#fff\">9 or more</span></p>\n</header>\n", out);
}

static int write_page(FILE *out, const wl_file_result *results, size_t count, const wl_options *opt) {
  json_value *k20c;
  char paper_name[256] = "", err[512];
  k20c = wl_load_profile("k20c-paper", "sm_35", paper_name, sizeof paper_name, err, sizeof err);
  wl_options paper = *opt;
  paper.profile = k20c;
  paper.profile_name = k20c ? paper_name : NULL;
  paper.profile_short = "K20c";
  html_head(out, results, count, opt, &paper);
  html_contents(out, results, count);
  for (size_t i = 0, first = 0; i < count; i++) {
    html_file(out, &results[i], i, first, opt, &paper);
    first += results[i].finding_count;
  }
  fprintf(out, "<footer class=\"meta\"><p>warplint %s</p></footer>\n</body></html>\n", WARPLINT_VERSION);
  json_free(k20c);
  return ferror(out) ? -1 : 0;
}

/* The page goes to a temporary file beside path, renamed over it once
 * complete: a failed run leaves no half-written report. */
int wl_print_html(const wl_file_result *results, size_t count, const wl_options *opt, const char *path) {
  if (!path) return write_page(stdout, results, count, opt) == 0 && fflush(stdout) == 0 ? 0 : -1;
  char *tmp = wl_format("%s.XXXXXX", path);
  int fd = mkstemp(tmp);
  FILE *out = fd >= 0 ? fdopen(fd, "w") : NULL;
  bool ok = out != NULL;
  int saved = errno;
  if (ok) {
    mode_t mask = umask(0);
    umask(mask);
    ok = fchmod(fd, 0666 & ~mask) == 0 && write_page(out, results, count, opt) == 0;
    saved = errno;
    if (fclose(out) != 0 && ok) { ok = false; saved = errno; }
    if (ok && rename(tmp, path) != 0) { ok = false; saved = errno; }
  } else if (fd >= 0) {
    close(fd);
  }
  if (!ok) {
    fprintf(stderr, "warplint: error: cannot write %s: %s\n", path, strerror(saved));
    if (fd >= 0) remove(tmp);
  }
  free(tmp);
  return ok ? 0 : -1;
}
