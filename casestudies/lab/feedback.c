/* The guideline half of `lab check`: warplint's JSON on one file, reduced
 * to the findings a student needs (rule, severity, line, array, message,
 * first note). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "json_reader.h"
#include "lab.h"

static void copy_text(char *to, size_t size, const char *from) {
  snprintf(to, size, "%s", from ? from : "");
}

static bool read_findings(const json_value *root, lab_findings *out, char *err,
                          size_t err_size) {
  const json_value *errors = json_get(root, "errors");
  if (errors && errors->count > 0) {
    copy_text(err, err_size, json_string_or(json_at(errors, 0), "warplint reported an error"));
    return false;
  }
  const json_value *findings = json_get(root, "findings");
  if (!findings || findings->type != JSON_ARRAY) {
    copy_text(err, err_size, "warplint's output has no findings array");
    return false;
  }
  out->count = (int)findings->count;
  out->items = calloc(findings->count ? findings->count : 1, sizeof *out->items);
  if (!out->items) {
    copy_text(err, err_size, "out of memory");
    return false;
  }
  for (size_t i = 0; i < findings->count; i++) {
    const json_value *f = json_at(findings, i);
    lab_finding *to = &out->items[i];
    copy_text(to->rule, sizeof to->rule, json_string_or(json_get(f, "rule"), "?"));
    copy_text(to->severity, sizeof to->severity, json_string_or(json_get(f, "severity"), ""));
    copy_text(to->array, sizeof to->array, json_string_or(json_get(f, "array"), ""));
    copy_text(to->message, sizeof to->message, json_string_or(json_get(f, "message"), ""));
    copy_text(to->note, sizeof to->note,
              json_string_or(json_at(json_get(f, "notes"), 0), ""));
    to->line = (int)json_number_or(json_get(f, "line"), 0);
  }
  return true;
}

bool lab_run_warplint(const char *warplint, const char *file, const char *lab_dir,
                      lab_findings *out, char *err, size_t err_size) {
  memset(out, 0, sizeof *out);
  char output[] = "/tmp/lab-warplint-XXXXXX";
  int fd = mkstemp(output);
  if (fd < 0) {
    copy_text(err, err_size, "cannot create a temporary file for warplint's output");
    return false;
  }
  close(fd);
  char include_flag[4096];
  snprintf(include_flag, sizeof include_flag, "-I%s", lab_dir);
  char *argv[] = {(char *)warplint, "check", "--format=json", (char *)file, "--",
                  include_flag, NULL};
  int status = lab_run_program(argv, output);
  bool ok = false;
  /* 0: clean, 1: findings; anything else is a failure of the tool itself. */
  if (status == 0 || status == 1 || status == 2) {
    char parse_err[256];
    json_value *root = json_parse_file(output, parse_err, sizeof parse_err);
    if (root) {
      ok = read_findings(root, out, err, err_size);
      json_free(root);
    } else {
      snprintf(err, err_size, "cannot read warplint's output: %s", parse_err);
    }
  } else {
    snprintf(err, err_size, "%s exited with status %d", warplint, status);
  }
  remove(output);
  return ok;
}

void lab_findings_free(lab_findings *f) {
  free(f->items);
  f->items = NULL;
  f->count = 0;
}
