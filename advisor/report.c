/* Output: clang-tidy style text, the JSON document other tools read (schema
 * in README.md), SARIF 2.1.0 for code scanning, and the array table. */
#include "warplint.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_writer.h"

static const char *const class_names[] = {"read-only", "temporal", "reusable", "written"};

/* Copies line number `line` (1-based) of text into out, without the newline. */
static bool source_line(const char *text, unsigned line, char *out, size_t size) {
  if (!text) return false;
  const char *p = text;
  for (unsigned l = 1; l < line; l++) {
    p = strchr(p, '\n');
    if (!p) return false;
    p++;
  }
  size_t len = strcspn(p, "\n");
  if (len >= size) len = size - 1;
  memcpy(out, p, len);
  out[len] = 0;
  return true;
}

static void print_caret(const char *text, unsigned line, unsigned column) {
  char src[1024];
  if (!source_line(text, line, src, sizeof src)) return;
  printf("%s\n", src);
  for (unsigned i = 1; i < column && i <= strlen(src); i++) putchar(src[i - 1] == '\t' ? '\t' : ' ');
  puts("^");
}

/* Errors (why a file was skipped) and file notes (parse errors outside the
 * analysed kernels, kernels skipped) go to stderr, as a compiler's do. */
static void print_file_diagnostics(const wl_file_result *r) {
  for (size_t e = 0; e < r->error_count; e++) fprintf(stderr, "%s\n", r->errors[e]);
  for (size_t n = 0; n < r->note_count; n++) fprintf(stderr, "%s\n", r->notes[n]);
}

static const char *plural(long n, const char *one, const char *many) { return n == 1 ? one : many; }

/* The "note:" lines the text prints under a finding: its notes, its
 * fix-its and the ptxas verdict. (A file's own notes are counted apart.) */
static long detail_lines(const wl_finding *f) {
  return f->note_count + f->fix_count + (f->confirmed_set ? 1 : 0);
}

/* "warplint: 3 files analysed (7 kernels), 1 file skipped; 5 warnings, 1 note"
 * and, for the text, how many of the "note:" lines printed are not findings
 * (a finding's explanations and fix-its, a file's notes), so that the
 * counts add up to what was printed. */
static void print_summary(FILE *out, const wl_file_result *results, size_t count, bool text) {
  long analysed = 0, skipped = 0, kernels = 0, kernels_skipped = 0, warnings = 0, notes = 0, details = 0, syntax = 0;
  for (size_t i = 0; i < count; i++) {
    const wl_file_result *r = &results[i];
    if (r->failed) skipped++;
    else analysed++;
    kernels += r->kernels_analysed;
    kernels_skipped += r->kernels_skipped;
    for (size_t k = 0; k < r->kernel_count; k++) syntax += strcmp(r->kernels[k].analysis, "syntax") == 0;
    details += (long)r->note_count;   /* the file's own notes: parse errors outside kernels, no kernel */
    for (size_t k = 0; k < r->finding_count; k++) {
      if (strcmp(r->findings[k].severity, "warning") == 0) warnings++;
      else notes++;
      details += detail_lines(&r->findings[k]);
    }
  }
  fprintf(out, "warplint: %ld %s analysed (%ld %s", analysed, plural(analysed, "file", "files"), kernels,
          plural(kernels, "kernel", "kernels"));
  if (syntax) fprintf(out, ", %ld from %s syntax alone", syntax, syntax == 1 ? "its" : "their");
  fputc(')', out);
  if (skipped) fprintf(out, ", %ld %s skipped", skipped, plural(skipped, "file", "files"));
  if (kernels_skipped)
    fprintf(out, ", %ld %s skipped", kernels_skipped, plural(kernels_skipped, "kernel", "kernels"));
  fprintf(out, "; %ld %s, %ld %s", warnings, plural(warnings, "warning", "warnings"), notes,
          plural(notes, "note", "notes"));
  if (text && details)
    fprintf(out, " (and %ld more \"note:\" %s: explanations, fix-its, file notes)", details,
            plural(details, "line", "lines"));
  fputc('\n', out);
}

void wl_print_summary(FILE *out, const wl_file_result *results, size_t count) {
  print_summary(out, results, count, false);
}

void wl_print_text(const wl_file_result *results, size_t count, bool draw) {
  for (size_t i = 0; i < count; i++) {
    const wl_file_result *r = &results[i];
    print_file_diagnostics(r);
    if (r->finding_count == 0) continue;
    size_t len;
    char *text = read_text_file(r->path, &len);
    for (size_t k = 0; k < r->finding_count; k++) {
      const wl_finding *f = &r->findings[k];
      printf("%s:%u:%u: %s: %s [%s]\n", r->path, f->line, f->column, f->severity, f->message, f->rule);
      print_caret(text, f->line, f->column);
      for (int n = 0; n < f->note_count; n++)
        printf("%s:%u:%u: note: %s\n", r->path, f->note_line[n], f->note_column[n], f->notes[n]);
      for (int x = 0; x < f->fix_count; x++)
        printf("%s:%u:%u: note: fix-it: replace %u %s with '%s'\n", r->path, f->fixes[x].line,
               f->fixes[x].column, f->fixes[x].length, plural(f->fixes[x].length, "byte", "bytes"),
               f->fixes[x].replacement);
      if (f->confirmed_set)
        printf("%s:%u:%u: note: ptxas %s it\n", r->path, f->line, f->column,
               f->confirmed ? "confirms" : "does not confirm");
      if (draw) wl_draw_finding(stdout, f);
    }
    for (size_t u = 0; u < r->usage_count; u++) {
      const wl_kernel_usage *k = &r->usage[u];
      printf("%s: note: ptxas: %s: %d registers, %d bytes local (stack), %d bytes spill stores, "
             "%d bytes spill loads, %d bytes shared\n", r->path, k->kernel, k->registers, k->local_bytes,
             k->spill_stores, k->spill_loads, k->shared_bytes);
    }
    free(text);
  }
  print_summary(stdout, results, count, true);
}

/* warplint verify: "measured": {"state", "unit", "total", "ideal", "excess_percent",
 * "kernel_share_percent", "instructions"} (verify.c) */
static void write_measured(jsonw *w, const wl_finding *f) {
  jsonw_key(w, "measured");
  jsonw_object_begin(w);
  jsonw_key(w, "state"); jsonw_string(w, f->measured);
  if (strcmp(f->measured, "measured") == 0) {
    jsonw_key(w, "unit"); jsonw_string(w, f->measured_unit);
    jsonw_key(w, "total"); jsonw_number(w, f->measured_total);
    jsonw_key(w, "ideal"); jsonw_number(w, f->measured_ideal);
    jsonw_key(w, "excess_percent"); jsonw_number(w, f->measured_excess_pct);
    jsonw_key(w, "kernel_share_percent");
    if (f->measured_kernel_share >= 0) jsonw_number(w, f->measured_kernel_share);
    else jsonw_null(w);
    jsonw_key(w, "instructions"); jsonw_number(w, f->measured_inst);
  }
  jsonw_object_end(w);
}

/* {"space": "global", "example": "n = 32", "width": 4, "lanes": [0, 4, null...]}:
 * the memory drawn, the sizes an example drawing takes (only then), each
 * active lane's byte offset from the lowest, null for an inactive lane;
 * null when not modelled. */
static void write_warp(jsonw *w, const wl_warp *warp, const char *space) {
  if (!warp || !warp->known) { jsonw_null(w); return; }
  jsonw_object_begin(w);
  jsonw_key(w, "space"); jsonw_string(w, space);
  if (warp->example[0]) { jsonw_key(w, "example"); jsonw_string(w, warp->example); }
  jsonw_key(w, "width"); jsonw_int(w, warp->width);
  jsonw_key(w, "lanes");
  jsonw_array_begin(w);
  for (int l = 0; l < 32; l++) {
    if (warp->active >> l & 1) jsonw_int(w, warp->offset[l]);
    else jsonw_null(w);
  }
  jsonw_array_end(w);
  jsonw_object_end(w);
}

static void write_classes(jsonw *w, int classes) {
  jsonw_array_begin(w);
  for (int c = 0; c < 4; c++)
    if (classes & (1 << c)) jsonw_string(w, class_names[c]);
  jsonw_array_end(w);
}

/* How each kernel was analysed: "device" (each instantiation by its name
 * in device code) or "syntax" (with why there was no device code). */
static void write_kernel_record(jsonw *w, const wl_kernel_record *r) {
  jsonw_key(w, "kernel"); jsonw_string(w, r->kernel);
  jsonw_key(w, "line"); jsonw_int(w, r->line);
  jsonw_key(w, "column"); jsonw_int(w, r->column);
  jsonw_key(w, "analysis"); jsonw_string(w, r->analysis);
  jsonw_key(w, "instance"); jsonw_string(w, r->instance);
  jsonw_key(w, "reason"); jsonw_string(w, r->reason);
}

static void write_kernel_records(jsonw *w, const wl_file_result *f) {
  jsonw_array_begin(w);
  for (size_t k = 0; k < f->kernel_count; k++) {
    jsonw_object_begin(w);
    write_kernel_record(w, &f->kernels[k]);
    jsonw_object_end(w);
  }
  jsonw_array_end(w);
}

void wl_print_json(const wl_file_result *results, size_t count, const wl_options *opt) {
  jsonw w;
  jsonw_init(&w, stdout, true);
  jsonw_object_begin(&w);
  jsonw_key(&w, "tool"); jsonw_string(&w, "warplint");
  jsonw_key(&w, "version"); jsonw_string(&w, WARPLINT_VERSION);
  jsonw_key(&w, "profile"); jsonw_string(&w, opt->profile_name);
  jsonw_key(&w, "arch"); jsonw_string(&w, opt->arch);
  jsonw_key(&w, "headers"); jsonw_string(&w, opt->cuda_path ? opt->cuda_path : "stand-ins");
  jsonw_key(&w, "findings");
  jsonw_array_begin(&w);
  for (size_t i = 0; i < count; i++) {
    for (size_t k = 0; k < results[i].finding_count; k++) {
      const wl_finding *f = &results[i].findings[k];
      jsonw_object_begin(&w);
      jsonw_key(&w, "rule"); jsonw_string(&w, f->rule);
      jsonw_key(&w, "severity"); jsonw_string(&w, f->severity);
      jsonw_key(&w, "file"); jsonw_string(&w, results[i].path);
      jsonw_key(&w, "line"); jsonw_int(&w, f->line);
      jsonw_key(&w, "column"); jsonw_int(&w, f->column);
      jsonw_key(&w, "kernel"); jsonw_string(&w, f->kernel);
      jsonw_key(&w, "array"); jsonw_string(&w, f->array);
      jsonw_key(&w, "space"); jsonw_string(&w, f->space);
      jsonw_key(&w, "message"); jsonw_string(&w, f->message);
      jsonw_key(&w, "estimate");
      jsonw_object_begin(&w);
      jsonw_key(&w, "profile"); jsonw_string(&w, opt->profile_name);
      jsonw_key(&w, "metrics");
      jsonw_array_begin(&w);
      for (int m = 0; m < f->metric_count; m++) {
        jsonw_object_begin(&w);
        jsonw_key(&w, "key"); jsonw_string(&w, f->metrics[m].key);
        jsonw_key(&w, "measured"); jsonw_bool(&w, f->metrics[m].present);
        jsonw_key(&w, "value");
        if (f->metrics[m].present) jsonw_number(&w, f->metrics[m].value);
        else jsonw_null(&w);
        jsonw_key(&w, "unit"); jsonw_string(&w, f->metrics[m].present ? f->metrics[m].unit : NULL);
        jsonw_object_end(&w);
      }
      jsonw_array_end(&w);
      if (f->confirmed_set) { jsonw_key(&w, "ptxas_confirmed"); jsonw_bool(&w, f->confirmed); }
      jsonw_object_end(&w);
      if (f->measured) write_measured(&w, f);
      const char *fixed_space;
      const wl_warp *fixed = wl_fixed_warp(f, &fixed_space);
      jsonw_key(&w, "warp"); write_warp(&w, &f->warp, f->space);
      jsonw_key(&w, "fixed_warp"); write_warp(&w, fixed, fixed_space);
      jsonw_key(&w, "notes");
      jsonw_array_begin(&w);
      for (int n = 0; n < f->note_count; n++) jsonw_string(&w, f->notes[n]);
      jsonw_array_end(&w);
      jsonw_key(&w, "fixes");
      jsonw_array_begin(&w);
      for (int x = 0; x < f->fix_count; x++) {
        jsonw_object_begin(&w);
        jsonw_key(&w, "file"); jsonw_string(&w, results[i].path);
        jsonw_key(&w, "line"); jsonw_int(&w, f->fixes[x].line);
        jsonw_key(&w, "column"); jsonw_int(&w, f->fixes[x].column);
        jsonw_key(&w, "length"); jsonw_int(&w, f->fixes[x].length);
        jsonw_key(&w, "replacement"); jsonw_string(&w, f->fixes[x].replacement);
        jsonw_object_end(&w);
      }
      jsonw_array_end(&w);
      jsonw_object_end(&w);
    }
  }
  jsonw_array_end(&w);
  jsonw_key(&w, "arrays");
  jsonw_array_begin(&w);
  for (size_t i = 0; i < count; i++) {
    for (size_t k = 0; k < results[i].array_count; k++) {
      const wl_array_info *a = &results[i].arrays[k];
      jsonw_object_begin(&w);
      jsonw_key(&w, "file"); jsonw_string(&w, results[i].path);
      jsonw_key(&w, "kernel"); jsonw_string(&w, a->kernel);
      jsonw_key(&w, "array"); jsonw_string(&w, a->array);
      jsonw_key(&w, "space"); jsonw_string(&w, a->space);
      jsonw_key(&w, "element_type"); jsonw_string(&w, a->element_type);
      jsonw_key(&w, "classes"); write_classes(&w, a->classes);
      jsonw_key(&w, "patterns"); jsonw_string(&w, a->patterns);
      jsonw_key(&w, "recommended"); jsonw_string(&w, a->recommended);
      jsonw_key(&w, "line"); jsonw_int(&w, a->line);
      jsonw_key(&w, "column"); jsonw_int(&w, a->column);
      jsonw_object_end(&w);
    }
  }
  jsonw_array_end(&w);
  jsonw_key(&w, "errors");
  jsonw_array_begin(&w);
  for (size_t i = 0; i < count; i++)
    for (size_t e = 0; e < results[i].error_count; e++) jsonw_string(&w, results[i].errors[e]);
  jsonw_array_end(&w);
  jsonw_key(&w, "notes");
  jsonw_array_begin(&w);
  for (size_t i = 0; i < count; i++)
    for (size_t n = 0; n < results[i].note_count; n++) jsonw_string(&w, results[i].notes[n]);
  jsonw_array_end(&w);
  jsonw_key(&w, "files");
  jsonw_array_begin(&w);
  for (size_t i = 0; i < count; i++) {
    const wl_file_result *f = &results[i];
    jsonw_object_begin(&w);
    jsonw_key(&w, "file"); jsonw_string(&w, f->path);
    jsonw_key(&w, "status"); jsonw_string(&w, f->failed ? "skipped" : "analysed");
    jsonw_key(&w, "reason"); jsonw_string(&w, f->failed && f->error_count ? f->errors[0] : NULL);
    jsonw_key(&w, "kernels_analysed"); jsonw_int(&w, f->kernels_analysed);
    jsonw_key(&w, "kernels_skipped"); jsonw_int(&w, f->kernels_skipped);
    jsonw_key(&w, "kernels");
    write_kernel_records(&w, f);
    jsonw_object_end(&w);
  }
  jsonw_array_end(&w);
  jsonw_object_end(&w);
  fputc('\n', stdout);
}

static void sarif_text(jsonw *w, const char *key, const char *text) {
  jsonw_key(w, key);
  jsonw_object_begin(w);
  jsonw_key(w, "text"); jsonw_string(w, text);
  jsonw_object_end(w);
}

/* One SARIF notification: a file skipped (error) or a file note. */
static void sarif_notification(jsonw *w, const char *level, const char *text, const char *uri) {
  jsonw_object_begin(w);
  jsonw_key(w, "level"); jsonw_string(w, level);
  sarif_text(w, "message", text);
  jsonw_key(w, "locations");
  jsonw_array_begin(w);
  jsonw_object_begin(w);
  jsonw_key(w, "physicalLocation");
  jsonw_object_begin(w);
  jsonw_key(w, "artifactLocation");
  jsonw_object_begin(w);
  jsonw_key(w, "uri"); jsonw_string(w, uri);
  jsonw_object_end(w);
  jsonw_object_end(w);
  jsonw_object_end(w);
  jsonw_array_end(w);
  jsonw_object_end(w);
}

/* invocations[0]: whether every file was analysed, and each skipped file
 * and file note as a toolExecutionNotification. */
static void sarif_invocation(jsonw *w, const wl_file_result *results, size_t count) {
  bool all = true;
  for (size_t i = 0; i < count; i++) all = all && !results[i].failed;
  jsonw_key(w, "invocations");
  jsonw_array_begin(w);
  jsonw_object_begin(w);
  jsonw_key(w, "executionSuccessful"); jsonw_bool(w, all);
  jsonw_key(w, "toolExecutionNotifications");
  jsonw_array_begin(w);
  for (size_t i = 0; i < count; i++) {
    for (size_t e = 0; e < results[i].error_count; e++)
      sarif_notification(w, "error", results[i].errors[e], results[i].path);
    for (size_t n = 0; n < results[i].note_count; n++)
      sarif_notification(w, "note", results[i].notes[n], results[i].path);
  }
  jsonw_array_end(w);
  jsonw_object_end(w);
  jsonw_array_end(w);
}

/* "artifactLocation": {"uri": uri}. */
static void sarif_artifact(jsonw *w, const char *uri) {
  jsonw_key(w, "artifactLocation");
  jsonw_object_begin(w);
  jsonw_key(w, "uri"); jsonw_string(w, uri);
  jsonw_object_end(w);
}

/* "physicalLocation": uri at line:column. */
static void sarif_physical_location(jsonw *w, const char *uri, unsigned line, unsigned column) {
  jsonw_key(w, "physicalLocation");
  jsonw_object_begin(w);
  sarif_artifact(w, uri);
  jsonw_key(w, "region");
  jsonw_object_begin(w);
  jsonw_key(w, "startLine"); jsonw_int(w, line);
  jsonw_key(w, "startColumn"); jsonw_int(w, column);
  jsonw_object_end(w);
  jsonw_object_end(w);
}

/* Where a fix-it's bytes end: the line and column just past them, walking
 * the source text (a replacement may run over a line end). */
static void fix_end(const char *text, const wl_fix *fx, unsigned *line, unsigned *column) {
  *line = fx->line;
  *column = fx->column + fx->length;
  if (!text) return;
  const char *p = text;
  for (unsigned l = 1; l < fx->line && p; l++) p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL;
  if (!p) return;
  p += fx->column - 1;
  unsigned col = fx->column;
  for (unsigned k = 0; k < fx->length && *p; k++, p++) {
    if (*p == '\n') { ++*line; col = 1; }
    else col++;
  }
  *column = col;
}

/* The message, its text and in Markdown with the finding's notes under
 * it, and the notes again as related locations (code scanning links them). */
static void sarif_message_and_notes(jsonw *w, const char *uri, const wl_finding *f) {
  jsonw_key(w, "message");
  jsonw_object_begin(w);
  jsonw_key(w, "text"); jsonw_string(w, f->message);
  if (f->note_count) {
    size_t size = strlen(f->message) + 8;
    for (int n = 0; n < f->note_count; n++) size += strlen(f->notes[n]) + 8;
    char *markdown = malloc(size);
    if (markdown) {
      size_t used = (size_t)snprintf(markdown, size, "%s\n", f->message);
      for (int n = 0; n < f->note_count; n++) used += (size_t)snprintf(markdown + used, size - used, "\n- %s", f->notes[n]);
      jsonw_key(w, "markdown"); jsonw_string(w, markdown);
      free(markdown);
    }
  }
  jsonw_object_end(w);
  if (!f->note_count) return;
  jsonw_key(w, "relatedLocations");
  jsonw_array_begin(w);
  for (int n = 0; n < f->note_count; n++) {
    jsonw_object_begin(w);
    jsonw_key(w, "id"); jsonw_int(w, n + 1);
    sarif_physical_location(w, uri, f->note_line[n], f->note_column[n]);
    sarif_text(w, "message", f->notes[n]);
    jsonw_object_end(w);
  }
  jsonw_array_end(w);
}

/* The fix-its as one SARIF fix: an artifact change of the file with one
 * replacement per fix-it (the region deleted, the text inserted). */
static void sarif_fixes(jsonw *w, const char *uri, const char *text, const wl_finding *f) {
  if (!f->fix_count) return;
  jsonw_key(w, "fixes");
  jsonw_array_begin(w);
  jsonw_object_begin(w);
  char description[256];
  snprintf(description, sizeof description, "warplint's fix-it for %s", f->rule);
  sarif_text(w, "description", description);
  jsonw_key(w, "artifactChanges");
  jsonw_array_begin(w);
  jsonw_object_begin(w);
  sarif_artifact(w, uri);
  jsonw_key(w, "replacements");
  jsonw_array_begin(w);
  for (int x = 0; x < f->fix_count; x++) {
    const wl_fix *fx = &f->fixes[x];
    unsigned end_line, end_column;
    fix_end(text, fx, &end_line, &end_column);
    jsonw_object_begin(w);
    jsonw_key(w, "deletedRegion");
    jsonw_object_begin(w);
    jsonw_key(w, "startLine"); jsonw_int(w, fx->line);
    jsonw_key(w, "startColumn"); jsonw_int(w, fx->column);
    jsonw_key(w, "endLine"); jsonw_int(w, end_line);
    jsonw_key(w, "endColumn"); jsonw_int(w, end_column);
    jsonw_object_end(w);
    jsonw_key(w, "insertedContent");
    jsonw_object_begin(w);
    jsonw_key(w, "text"); jsonw_string(w, fx->replacement);
    jsonw_object_end(w);
    jsonw_object_end(w);
  }
  jsonw_array_end(w);
  jsonw_object_end(w);
  jsonw_array_end(w);
  jsonw_object_end(w);
  jsonw_array_end(w);
}

void wl_print_sarif(const wl_file_result *results, size_t count) {
  jsonw w;
  jsonw_init(&w, stdout, true);
  jsonw_object_begin(&w);
  jsonw_key(&w, "$schema"); jsonw_string(&w, "https://json.schemastore.org/sarif-2.1.0.json");
  jsonw_key(&w, "version"); jsonw_string(&w, "2.1.0");
  jsonw_key(&w, "runs");
  jsonw_array_begin(&w);
  jsonw_object_begin(&w);
  jsonw_key(&w, "tool");
  jsonw_object_begin(&w);
  jsonw_key(&w, "driver");
  jsonw_object_begin(&w);
  jsonw_key(&w, "name"); jsonw_string(&w, "warplint");
  jsonw_key(&w, "version"); jsonw_string(&w, WARPLINT_VERSION);
  jsonw_key(&w, "informationUri"); jsonw_string(&w, "https://github.com/warpmem/warpmem");
  jsonw_key(&w, "rules");
  jsonw_array_begin(&w);
  const json_value *rules = json_get(wl_catalog(), "rules");
  for (size_t i = 0; rules && i < rules->count; i++) {
    const json_value *rule = json_at(rules, i);
    jsonw_object_begin(&w);
    jsonw_key(&w, "id"); jsonw_string(&w, json_string_or(json_get(rule, "id"), "?"));
    sarif_text(&w, "shortDescription", json_string_or(json_get(rule, "title"), ""));
    sarif_text(&w, "fullDescription", json_string_or(json_get(rule, "guideline"), ""));
    jsonw_key(&w, "defaultConfiguration");
    jsonw_object_begin(&w);
    jsonw_key(&w, "level"); jsonw_string(&w, "warning");
    jsonw_object_end(&w);
    jsonw_object_end(&w);
  }
  jsonw_array_end(&w);
  jsonw_object_end(&w);
  jsonw_object_end(&w);
  sarif_invocation(&w, results, count);
  jsonw_key(&w, "results");
  jsonw_array_begin(&w);
  for (size_t i = 0; i < count; i++) {
    size_t len;
    char *text = results[i].finding_count ? read_text_file(results[i].path, &len) : NULL;
    for (size_t k = 0; k < results[i].finding_count; k++) {
      const wl_finding *f = &results[i].findings[k];
      jsonw_object_begin(&w);
      jsonw_key(&w, "ruleId"); jsonw_string(&w, f->rule);
      jsonw_key(&w, "level"); jsonw_string(&w, f->severity);
      sarif_message_and_notes(&w, results[i].path, f);
      if (f->measured) {
        jsonw_key(&w, "properties");
        jsonw_object_begin(&w);
        write_measured(&w, f);
        jsonw_object_end(&w);
      }
      jsonw_key(&w, "locations");
      jsonw_array_begin(&w);
      jsonw_object_begin(&w);
      sarif_physical_location(&w, results[i].path, f->line, f->column);
      jsonw_object_end(&w);
      jsonw_array_end(&w);
      sarif_fixes(&w, results[i].path, text, f);
      jsonw_object_end(&w);
    }
    free(text);
  }
  jsonw_array_end(&w);
  /* which model analysed each kernel, as JSON's files[].kernels */
  jsonw_key(&w, "properties");
  jsonw_object_begin(&w);
  jsonw_key(&w, "kernels");
  jsonw_array_begin(&w);
  for (size_t i = 0; i < count; i++) {
    for (size_t k = 0; k < results[i].kernel_count; k++) {
      jsonw_object_begin(&w);
      jsonw_key(&w, "file"); jsonw_string(&w, results[i].path);
      write_kernel_record(&w, &results[i].kernels[k]);
      jsonw_object_end(&w);
    }
  }
  jsonw_array_end(&w);
  jsonw_object_end(&w);
  jsonw_object_end(&w);
  jsonw_array_end(&w);
  jsonw_object_end(&w);
  fputc('\n', stdout);
}

void wl_print_arrays_table(const wl_file_result *results, size_t count) {
  printf("%-24s %-12s %-9s %-14s %-28s %-22s %s\n", "kernel", "array", "space", "element", "classes",
         "recommended", "access patterns");
  for (size_t i = 0; i < count; i++) {
    print_file_diagnostics(&results[i]);
    for (size_t k = 0; k < results[i].array_count; k++) {
      const wl_array_info *a = &results[i].arrays[k];
      char classes[64] = "";
      for (int c = 0; c < 4; c++) {
        if (!(a->classes & (1 << c))) continue;
        size_t len = strlen(classes);
        snprintf(classes + len, sizeof classes - len, "%s%s", len ? "," : "", class_names[c]);
      }
      printf("%-24s %-12s %-9s %-14s %-28s %-22s %s\n", a->kernel, a->array, a->space, a->element_type,
             classes[0] ? classes : "-", a->recommended, a->patterns);
    }
  }
}
