/* Spellings nvcc accepts and clang refuses, said again the way clang reads
 * them, in place: every line and column stays where it was, so that what
 * libclang and the device compile report still points at the user's text.
 *
 * The one form so far: a launch whose brackets an editor spaced apart,
 * `kernel << <grid, block >> > (args)` (Visual Studio's formatter writes
 * it; nvcc's front end reads `<< <` as `<<<`). `<< <` cannot be anything
 * else in C++ (no expression starts with `<`); `>> >` can close nested
 * templates, so it is respelled only as the closer of such an opener. */
#include "respell.h"

#include <stdbool.h>
#include <string.h>

static bool blank(char c) { return c == ' ' || c == '\t'; }

/* The end of a triple bracket c at `at` ("<<<", "<< <", ">> >"), or at
 * itself when there is none. */
static size_t triple_end(const char *text, size_t len, size_t at, char c) {
  if (at + 1 >= len || text[at] != c || text[at + 1] != c) return at;
  size_t k = at + 2;
  while (k < len && blank(text[k])) k++;
  return k < len && text[k] == c ? k + 1 : at;
}

/* Writes the brackets of [at, end) as three together, spaces after. */
static void close_up(char *text, size_t at, size_t end, char c) {
  memset(text + at, ' ', end - at);
  memset(text + at, c, 3);
}

/* The closer of the opener ending at `from`: the first triple '>' outside
 * parentheses followed by '(' (the launch's arguments). */
static size_t find_closer(const char *text, size_t len, size_t from, size_t *end) {
  int depth = 0;
  for (size_t k = from; k < len; k++) {
    char ch = text[k];
    if (ch == ';' || ch == '{' || ch == '}') return len;
    depth += (ch == '(' || ch == '[') - (ch == ')' || ch == ']');
    if (depth < 0) return len;
    if (depth > 0 || ch != '>') continue;
    size_t e = triple_end(text, len, k, '>');
    if (e == k) continue;
    size_t p = e;
    while (p < len && (blank(text[p]) || text[p] == '\n' || text[p] == '\r')) p++;
    if (p < len && text[p] == '(') {
      *end = e;
      return k;
    }
  }
  return len;
}

int respell_launches(char *text, size_t len) {
  int changed = 0;
  for (size_t at = 0; at + 3 <= len; at++) {
    if (text[at] != '<') continue;
    size_t open_end = triple_end(text, len, at, '<');
    if (open_end == at) continue;
    size_t close_end = 0, close = find_closer(text, len, open_end, &close_end);
    if (open_end - at > 3) { close_up(text, at, open_end, '<'); changed++; }
    if (close < len && close_end - close > 3) { close_up(text, close, close_end, '>'); changed++; }
    at = open_end - 1;
  }
  return changed;
}

size_t byte_at_place(const char *text, size_t len, int line, int column) {
  size_t at = 0;
  for (int l = 1; l < line && at < len; at++)
    if (text[at] == '\n') l++;
  return column < 1 || at + (size_t)column - 1 >= len ? len : at + (size_t)column - 1;
}

static bool in_launch_brackets(const char *text, size_t len, size_t at) {
  if (at >= len) return false;
  size_t start = at;
  while (start > 0 && at - start < 3 && (text[start - 1] == '<' || text[start - 1] == '>' || blank(text[start - 1])))
    start--;
  for (size_t k = start; k <= at; k++)
    if (triple_end(text, len, k, '<') != k || triple_end(text, len, k, '>') != k) return true;
  return false;
}

int respell_launch_at(char *text, size_t len, size_t at) {
  return in_launch_brackets(text, len, at) ? respell_launches(text, len) : -1;
}
