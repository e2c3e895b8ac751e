/* Sobol's primitive polynomials and initial direction numbers for the
 * dimensions after the first: Joe and Kuo's published set (new-joe-kuo-6,
 * "Constructing Sobol sequences with better two-dimensional projections",
 * SIAM J. Sci. Comput. 2008), its first 20 rows: degree s, coefficients a,
 * m_1..m_s. */
#ifndef GPUSYM_ROCRAND_JOE_KUO_H
#define GPUSYM_ROCRAND_JOE_KUO_H

struct JoeKuoRow {
  unsigned int s, a, m[7];
};

constexpr JoeKuoRow kJoeKuo[] = {
    {1, 0, {1}},
    {2, 1, {1, 3}},
    {3, 1, {1, 3, 1}},
    {3, 2, {1, 1, 1}},
    {4, 1, {1, 1, 3, 3}},
    {4, 4, {1, 3, 5, 13}},
    {5, 2, {1, 1, 5, 5, 17}},
    {5, 4, {1, 1, 5, 5, 5}},
    {5, 7, {1, 1, 7, 11, 19}},
    {5, 11, {1, 1, 5, 1, 1}},
    {5, 13, {1, 1, 1, 3, 11}},
    {5, 14, {1, 3, 5, 5, 31}},
    {6, 1, {1, 3, 3, 9, 7, 49}},
    {6, 13, {1, 1, 1, 15, 21, 21}},
    {6, 16, {1, 3, 1, 13, 27, 49}},
    {6, 19, {1, 1, 1, 15, 7, 5}},
    {6, 22, {1, 3, 1, 15, 13, 25}},
    {6, 25, {1, 1, 5, 5, 19, 61}},
    {7, 1, {1, 3, 7, 11, 23, 15, 103}},
    {7, 4, {1, 3, 7, 13, 13, 15, 69}},
};

/* Dimensions gpusym's Sobol32 has: the first (van der Corput's) and the rows. */
constexpr unsigned int kSobolDimensions = 1 + sizeof kJoeKuo / sizeof kJoeKuo[0];

#endif
