/* Arithmetic on index polynomials (see affine.h). */
#include "affine.h"

#include <string.h>

void poly_const(poly *p, long long value) {
  memset(p, 0, sizeof *p);
  if (value != 0) {
    p->count = 1;
    p->terms[0].coef = value;
  }
}

void poly_atom(poly *p, int atom) {
  memset(p, 0, sizeof *p);
  p->count = 1;
  p->terms[0].coef = 1;
  p->terms[0].degree = 1;
  p->terms[0].atoms[0] = atom;
}

void poly_unknown(poly *p, bool data_dependent) {
  memset(p, 0, sizeof *p);
  p->unknown = true;
  p->data_dependent = data_dependent;
}

static bool same_monomial(const poly_term *a, const poly_term *b) {
  if (a->degree != b->degree) return false;
  for (int i = 0; i < a->degree; i++)
    if (a->atoms[i] != b->atoms[i]) return false;
  return true;
}

/* Adds one term, merging with an equal monomial; false when out of room. */
static bool add_term(poly *p, const poly_term *t) {
  if (t->coef == 0) return true;
  for (int i = 0; i < p->count; i++) {
    if (same_monomial(&p->terms[i], t)) {
      p->terms[i].coef += t->coef;
      if (p->terms[i].coef == 0) p->terms[i] = p->terms[--p->count];
      return true;
    }
  }
  if (p->count == POLY_MAX_TERMS) return false;
  p->terms[p->count++] = *t;
  return true;
}

static void merge_unknown(poly *out, const poly *a, const poly *b) {
  bool varying = poly_varies(a) || poly_varies(b);
  poly_unknown(out, a->data_dependent || b->data_dependent);
  out->lane_varying = varying;
}

/* Whether p's value differs from lane to lane: it depends on a thread
 * index, or it is unknown but known to vary (a value each lane loads). */
bool poly_varies(const poly *p) {
  return p->unknown ? p->lane_varying : poly_lane_dependent(p);
}

bool poly_lane_dependent(const poly *p) {
  return poly_uses_atom(p, ATOM_TX) || poly_uses_atom(p, ATOM_TY) || poly_uses_atom(p, ATOM_TZ);
}

void poly_add(poly *out, const poly *a, const poly *b, long long b_sign) {
  if (a->unknown || b->unknown) { merge_unknown(out, a, b); return; }
  poly r = *a;
  for (int i = 0; i < b->count; i++) {
    poly_term t = b->terms[i];
    t.coef *= b_sign;
    if (!add_term(&r, &t)) { poly_unknown(out, false); return; }
  }
  *out = r;
}

void poly_mul(poly *out, const poly *a, const poly *b) {
  if (a->unknown || b->unknown) { merge_unknown(out, a, b); return; }
  poly r;
  poly_const(&r, 0);
  for (int i = 0; i < a->count; i++) {
    for (int j = 0; j < b->count; j++) {
      const poly_term *x = &a->terms[i], *y = &b->terms[j];
      if (x->degree + y->degree > POLY_MAX_DEGREE) { poly_unknown(out, false); return; }
      poly_term t = {x->coef * y->coef, 0, {0}};
      /* merge two sorted atom lists */
      int p = 0, q = 0;
      while (p < x->degree || q < y->degree) {
        if (q >= y->degree || (p < x->degree && x->atoms[p] <= y->atoms[q]))
          t.atoms[t.degree++] = x->atoms[p++];
        else
          t.atoms[t.degree++] = y->atoms[q++];
      }
      if (!add_term(&r, &t)) { poly_unknown(out, false); return; }
    }
  }
  *out = r;
}

bool poly_is_const(const poly *p, long long *value) {
  if (p->unknown) return false;
  long long v = 0;
  for (int i = 0; i < p->count; i++) {
    if (p->terms[i].degree != 0) return false;
    v += p->terms[i].coef;
  }
  if (value) *value = v;
  return true;
}

bool poly_equal(const poly *a, const poly *b) {
  if (a->unknown || b->unknown) return false;
  poly d;
  poly_add(&d, a, b, -1);
  long long v;
  return poly_is_const(&d, &v) && v == 0;
}

bool poly_uses_atom(const poly *p, int atom) {
  for (int i = 0; i < p->count; i++)
    for (int k = 0; k < p->terms[i].degree; k++)
      if (p->terms[i].atoms[k] == atom) return true;
  return false;
}

bool poly_split_constant(const poly *p, long long *c) {
  *c = 0;
  for (int i = 0; i < p->count; i++)
    if (p->terms[i].degree == 0) *c = p->terms[i].coef;
  return true;
}

void poly_coefficient(const poly *p, int atom, poly *out) {
  if (p->unknown) { *out = *p; return; }
  poly_const(out, 0);
  for (int i = 0; i < p->count; i++) {
    const poly_term *t = &p->terms[i];
    int hits = 0, at = -1;
    for (int k = 0; k < t->degree; k++)
      if (t->atoms[k] == atom) { hits++; at = k; }
    if (hits == 0) continue;
    if (hits > 1) { poly_unknown(out, false); return; }  /* not affine in atom */
    poly_term c = *t;
    for (int k = at; k + 1 < c.degree; k++) c.atoms[k] = c.atoms[k + 1];
    c.degree--;
    add_term(out, &c);
  }
}

bool poly_eval(const poly *p, const long long *values, int value_count, long long *out) {
  if (p->unknown) return false;
  long long sum = 0;
  for (int i = 0; i < p->count; i++) {
    long long t = p->terms[i].coef;
    for (int k = 0; k < p->terms[i].degree; k++) {
      int a = p->terms[i].atoms[k];
      if (a >= value_count || values[a] < 0) return false;
      t *= values[a];
    }
    sum += t;
  }
  *out = sum;
  return true;
}

void poly_partition(const poly *p, bool (*in)(const void *ctx, int atom), const void *ctx, poly *with,
                    poly *without) {
  if (p->unknown) { *with = *without = *p; return; }
  poly_const(with, 0);
  poly_const(without, 0);
  for (int i = 0; i < p->count; i++) {
    bool found = false;
    for (int k = 0; k < p->terms[i].degree && !found; k++) found = in(ctx, p->terms[i].atoms[k]);
    poly *to = found ? with : without;
    to->terms[to->count++] = p->terms[i];
  }
}

static bool below(const void *limit, int atom) { return atom < *(const int *)limit; }

void poly_split(const poly *p, int limit, poly *lane_part, poly *rest) {
  poly_partition(p, below, &limit, lane_part, rest);
}
