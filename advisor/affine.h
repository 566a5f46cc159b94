/* Affine (strictly: small polynomial) index expressions. An index such as
 * (blockIdx.y*blockDim.y + threadIdx.y)*N + k becomes a sum of terms, each an
 * integer coefficient times a product of at most three atoms (threadIdx.x,
 * a kernel parameter, a loop induction variable...). Anything else — a
 * division by a variable, a value loaded from memory — makes the expression
 * unknown, and the checks that need it stay silent. (Where only / or % by
 * constants is in the way, lanes.c evaluates the lanes one by one.) */
#ifndef WARPLINT_AFFINE_H
#define WARPLINT_AFFINE_H

#include <stdbool.h>

/* Products of several uniform factors (blockIdx.x * gridDim.y * n * d) stay
 * symbolic up to six factors. */
#define POLY_MAX_TERMS 24
#define POLY_MAX_DEGREE 6

/* Atom ids below ATOM_FIRST_SYMBOL are the built-in index variables. */
enum {
  ATOM_TX, ATOM_TY, ATOM_TZ, ATOM_BX, ATOM_BY, ATOM_BZ,
  ATOM_BDX, ATOM_BDY, ATOM_BDZ, ATOM_GDX, ATOM_GDY, ATOM_GDZ,
  ATOM_FIRST_SYMBOL
};

typedef struct poly_term {
  long long coef;
  int degree;
  int atoms[POLY_MAX_DEGREE];      /* sorted */
} poly_term;

typedef struct poly {
  bool unknown;
  bool data_dependent;             /* unknown because it reads memory */
  bool lane_varying;               /* unknown, but known to differ from lane to lane (it depends on
                                      threadIdx, or on a value each lane loads for itself) */
  int count;
  poly_term terms[POLY_MAX_TERMS];
} poly;

void poly_const(poly *p, long long value);
void poly_atom(poly *p, int atom);
void poly_unknown(poly *p, bool data_dependent);
/* Whether a known polynomial depends on the thread indices. */
bool poly_varies(const poly *p);
bool poly_lane_dependent(const poly *p);
void poly_add(poly *out, const poly *a, const poly *b, long long b_sign);
void poly_mul(poly *out, const poly *a, const poly *b);
bool poly_is_const(const poly *p, long long *value);
bool poly_equal(const poly *a, const poly *b);
bool poly_uses_atom(const poly *p, int atom);
/* The coefficient of atom as a polynomial (terms containing it once, divided by it). */
void poly_coefficient(const poly *p, int atom, poly *out);
bool poly_split_constant(const poly *p, long long *c);   /* its constant term (0 when none); true */
/* The terms that contain one of the atoms below `below` (the thread indices:
 * ATOM_BX) and the rest. */
void poly_split(const poly *p, int below, poly *lane_part, poly *rest);
/* The terms with an atom for which in(ctx, atom) holds, and the rest. */
void poly_partition(const poly *p, bool (*in)(const void *ctx, int atom), const void *ctx, poly *with,
                    poly *without);
/* Value with atoms given by values[]; false if an atom has no value (values[i] < 0 marks unknown). */
bool poly_eval(const poly *p, const long long *values, int value_count, long long *out);

#endif
