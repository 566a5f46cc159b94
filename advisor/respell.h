/* Spellings nvcc accepts and clang refuses, respelled in place with every
 * line and column kept (respell.c). frontend.c gives the respelled text to
 * libclang as an unsaved file, device.c to clang with -remap-file. */
#ifndef WARPLINT_RESPELL_H
#define WARPLINT_RESPELL_H

#include <stdbool.h>
#include <stddef.h>

/* The byte at (line, column) of text, as a compiler's message gives the
 * place, or len when there is none. */
size_t byte_at_place(const char *text, size_t len, int line, int column);
/* Launch brackets spaced apart (`<< <`, `>> >`) closed up; how many were. */
int respell_launches(char *text, size_t len);
/* Where clang's "expected expression" at byte `at` is in launch brackets
 * (spaced, or closed up by an earlier call): every spaced launch of text
 * closed up, and how many were; -1 when `at` is in none. */
int respell_launch_at(char *text, size_t len, size_t at);

#endif
