// SPDX-License-Identifier: MIT
#include "geom/predicates.h"

#include <float.h>
#include <math.h>

// Expansion arithmetic. An expansion is an array of doubles, ordered by increasing magnitude,
// whose exact sum is the represented value; zero components are dropped as they appear so that the
// usual case (coordinates whose differences are exact) stays short.

#define SPLITTER 134217729.0 // 2^27 + 1

static void two_sum(double a, double b, double *x, double *y) {
  double s = a + b;
  double bv = s - a;
  double av = s - bv;
  *x = s;
  *y = (a - av) + (b - bv);
}

static void fast_two_sum(double a, double b, double *x, double *y) {
  double s = a + b;
  *x = s;
  *y = b - (s - a);
}

static void two_diff(double a, double b, double *x, double *y) {
  double d = a - b;
  double bv = a - d;
  double av = d + bv;
  *x = d;
  *y = (a - av) + (bv - b);
}

static void split(double a, double *hi, double *lo) {
  double c = SPLITTER * a;
  double big = c - a;
  *hi = c - big;
  *lo = a - *hi;
}

static void two_product(double a, double b, double *x, double *y) {
  double p = a * b;
  double ahi, alo, bhi, blo;
  split(a, &ahi, &alo);
  split(b, &bhi, &blo);
  double err1 = p - ahi * bhi;
  double err2 = err1 - alo * bhi;
  double err3 = err2 - ahi * blo;
  *x = p;
  *y = alo * blo - err3;
}

/// Exact a - b as an expansion of 1 or 2 components.
static int diff_expansion(double a, double b, double *h) {
  double x, y;
  two_diff(a, b, &x, &y);
  if (y != 0.0) {
    h[0] = y;
    h[1] = x;
    return 2;
  }
  h[0] = x;
  return 1;
}

/// h = e + f (Shewchuk's fast expansion sum with zero elimination; h must not alias e or f).
static int expansion_sum(int elen, const double *e, int flen, const double *f, double *h) {
  int ei = 0, fi = 0, hi = 0;
  double q, qnew, hh;
  double enow = e[0], fnow = f[0];
  if ((fnow > enow) == (fnow > -enow)) {
    q = enow;
    ++ei;
  } else {
    q = fnow;
    ++fi;
  }
  if (ei < elen && fi < flen) {
    enow = e[ei];
    fnow = f[fi];
    if ((fnow > enow) == (fnow > -enow)) {
      fast_two_sum(enow, q, &qnew, &hh);
      ++ei;
    } else {
      fast_two_sum(fnow, q, &qnew, &hh);
      ++fi;
    }
    q = qnew;
    if (hh != 0.0) {
      h[hi++] = hh;
    }
    while (ei < elen && fi < flen) {
      enow = e[ei];
      fnow = f[fi];
      if ((fnow > enow) == (fnow > -enow)) {
        two_sum(q, enow, &qnew, &hh);
        ++ei;
      } else {
        two_sum(q, fnow, &qnew, &hh);
        ++fi;
      }
      q = qnew;
      if (hh != 0.0) {
        h[hi++] = hh;
      }
    }
  }
  for (; ei < elen; ++ei) {
    two_sum(q, e[ei], &qnew, &hh);
    q = qnew;
    if (hh != 0.0) {
      h[hi++] = hh;
    }
  }
  for (; fi < flen; ++fi) {
    two_sum(q, f[fi], &qnew, &hh);
    q = qnew;
    if (hh != 0.0) {
      h[hi++] = hh;
    }
  }
  if (q != 0.0 || hi == 0) {
    h[hi++] = q;
  }
  return hi;
}

/// h = e * b (h holds up to 2 * elen components).
static int scale_expansion(int elen, const double *e, double b, double *h) {
  int hi = 0;
  double q, hh, p1, p0, sum;
  two_product(e[0], b, &q, &hh);
  if (hh != 0.0) {
    h[hi++] = hh;
  }
  for (int i = 1; i < elen; ++i) {
    two_product(e[i], b, &p1, &p0);
    two_sum(q, p0, &sum, &hh);
    if (hh != 0.0) {
      h[hi++] = hh;
    }
    fast_two_sum(p1, sum, &q, &hh);
    if (hh != 0.0) {
      h[hi++] = hh;
    }
  }
  if (q != 0.0 || hi == 0) {
    h[hi++] = q;
  }
  return hi;
}

// Largest operand sizes below: a difference has 2 components, a product of two differences 8, a
// lifted coordinate (x^2 + y^2) 16, a product of a lift with a 2x2 determinant 2 * 16 * 16.
#define PROD_MAX 512

/// h = e * f, for f of at most 16 components and e * f of at most PROD_MAX.
static int multiply_expansions(int elen, const double *e, int flen, const double *f, double *h) {
  double term[PROD_MAX], acc[PROD_MAX];
  int hlen = scale_expansion(elen, e, f[0], h);
  for (int i = 1; i < flen; ++i) {
    int tlen = scale_expansion(elen, e, f[i], term);
    int alen = expansion_sum(hlen, h, tlen, term, acc);
    for (int k = 0; k < alen; ++k) {
      h[k] = acc[k];
    }
    hlen = alen;
  }
  return hlen;
}

static void negate(int len, double *e) {
  for (int i = 0; i < len; ++i) {
    e[i] = -e[i];
  }
}

/// e1 * f1 - e2 * f2 for expansions of at most 2 components each (result up to 16).
static int cross_expansion(int l1, const double *e1, int m1, const double *f1, int l2,
                           const double *e2, int m2, const double *f2, double *h) {
  double p[8], q[8];
  int plen = multiply_expansions(l1, e1, m1, f1, p);
  int qlen = multiply_expansions(l2, e2, m2, f2, q);
  negate(qlen, q);
  return expansion_sum(plen, p, qlen, q, h);
}

double an_orient2d_exact(vec2 a, vec2 b, vec2 c) {
  double acx[2], acy[2], bcx[2], bcy[2], det[16];
  int lacx = diff_expansion(a.x, c.x, acx);
  int lacy = diff_expansion(a.y, c.y, acy);
  int lbcx = diff_expansion(b.x, c.x, bcx);
  int lbcy = diff_expansion(b.y, c.y, bcy);
  int n = cross_expansion(lacx, acx, lbcy, bcy, lacy, acy, lbcx, bcx, det);
  return det[n - 1];
}

static int lift_expansion(int lx, const double *x, int ly, const double *y, double *h) {
  double xx[8], yy[8];
  int lxx = multiply_expansions(lx, x, lx, x, xx);
  int lyy = multiply_expansions(ly, y, ly, y, yy);
  return expansion_sum(lxx, xx, lyy, yy, h);
}

static double incircle_exact(vec2 a, vec2 b, vec2 c, vec2 d) {
  double adx[2], ady[2], bdx[2], bdy[2], cdx[2], cdy[2];
  int ladx = diff_expansion(a.x, d.x, adx), lady = diff_expansion(a.y, d.y, ady);
  int lbdx = diff_expansion(b.x, d.x, bdx), lbdy = diff_expansion(b.y, d.y, bdy);
  int lcdx = diff_expansion(c.x, d.x, cdx), lcdy = diff_expansion(c.y, d.y, cdy);

  double alift[16], blift[16], clift[16], bc[16], ca[16], ab[16];
  int lal = lift_expansion(ladx, adx, lady, ady, alift);
  int lbl = lift_expansion(lbdx, bdx, lbdy, bdy, blift);
  int lcl = lift_expansion(lcdx, cdx, lcdy, cdy, clift);
  int lbc = cross_expansion(lbdx, bdx, lcdy, cdy, lbdy, bdy, lcdx, cdx, bc);
  int lca = cross_expansion(lcdx, cdx, lady, ady, lcdy, cdy, ladx, adx, ca);
  int lab = cross_expansion(ladx, adx, lbdy, bdy, lady, ady, lbdx, bdx, ab);

  double ta[PROD_MAX], tb[PROD_MAX], tc[PROD_MAX], tab[2 * PROD_MAX], det[3 * PROD_MAX];
  int lta = multiply_expansions(lbc, bc, lal, alift, ta);
  int ltb = multiply_expansions(lca, ca, lbl, blift, tb);
  int ltc = multiply_expansions(lab, ab, lcl, clift, tc);
  int ltab = expansion_sum(lta, ta, ltb, tb, tab);
  int n = expansion_sum(ltab, tab, ltc, tc, det);
  return det[n - 1];
}

double an_incircle(vec2 a, vec2 b, vec2 c, vec2 d) {
  // Error bound of the plain evaluation (Shewchuk 1997, iccerrboundA).
  const double bound_a = (10.0 + 96.0 * AN_UNIT_ROUNDOFF) * AN_UNIT_ROUNDOFF;
  double adx = a.x - d.x, ady = a.y - d.y;
  double bdx = b.x - d.x, bdy = b.y - d.y;
  double cdx = c.x - d.x, cdy = c.y - d.y;
  double bdxcdy = bdx * cdy, cdxbdy = cdx * bdy;
  double cdxady = cdx * ady, adxcdy = adx * cdy;
  double adxbdy = adx * bdy, bdxady = bdx * ady;
  double alift = adx * adx + ady * ady;
  double blift = bdx * bdx + bdy * bdy;
  double clift = cdx * cdx + cdy * cdy;
  double det = alift * (bdxcdy - cdxbdy) + blift * (cdxady - adxcdy) + clift * (adxbdy - bdxady);
  double permanent = (fabs(bdxcdy) + fabs(cdxbdy)) * alift + (fabs(cdxady) + fabs(adxcdy)) * blift +
                     (fabs(adxbdy) + fabs(bdxady)) * clift;
  if (fabs(det) > bound_a * permanent) {
    return det;
  }
  return incircle_exact(a, b, c, d);
}

bool an_segments_intersect_exact(vec2 a, vec2 b, vec2 c, vec2 d) {
  const int sign[4] = {an_sign(an_orient2d(c, d, a)), an_sign(an_orient2d(c, d, b)),
                       an_sign(an_orient2d(a, b, c)), an_sign(an_orient2d(a, b, d))};
  return an_segments_meet_given_signs(a, b, c, d, sign);
}

bool an_segment_meets_box(vec2 p, vec2 q, vec2 lo, vec2 hi) {
  if (an_max(p.x, q.x) < lo.x || an_min(p.x, q.x) > hi.x || an_max(p.y, q.y) < lo.y ||
      an_min(p.y, q.y) > hi.y) {
    return false;
  }
  const vec2 corners[4] = {lo, v2(hi.x, lo.y), hi, v2(lo.x, hi.y)};
  int left = 0, right = 0;
  for (int k = 0; k < 4; ++k) {
    double o = an_orient2d(p, q, corners[k]);
    left += o > 0.0;
    right += o < 0.0;
  }
  return left < 4 && right < 4;
}
