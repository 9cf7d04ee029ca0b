/* test_fit: the Universal Scalability Law fit on usl4j's Cisco data and Kneedle (analysis/fit.h) */
#include <errno.h>
#include <math.h>
#include <stdbool.h>

#include "analysis/analysis.h"
#include "bc_test.h"

/* Cisco benchmark, "Practical Scalability Analysis" (Schwartz), as in usl4j's ModelTest */
static const double cisco[][2] = {
    {1, 955.16},    {2, 1878.91},   {3, 2688.01},   {4, 3548.68},   {5, 4315.54},   {6, 5130.43},
    {7, 5931.37},   {8, 6531.08},   {9, 7219.8},    {10, 7867.61},  {11, 8278.71},  {12, 8646.7},
    {13, 9047.84},  {14, 9426.55},  {15, 9645.37},  {16, 9897.24},  {17, 10097.6},  {18, 10240.5},
    {19, 10532.39}, {20, 10798.52}, {21, 11151.43}, {22, 11518.63}, {23, 11806},    {24, 12089.37},
    {25, 12075.41}, {26, 12177.29}, {27, 12211.41}, {28, 12158.93}, {29, 12155.27}, {30, 12118.04},
    {31, 12140.4},  {32, 12074.39},
};
#define NCISCO (int)(sizeof(cisco) / sizeof(cisco[0]))

static bool close_rel(double want, double got, double rel)
{
	return fabs(got - want) <= fabs(want) * rel;
}

static void test_usl(void)
{
	double n[NCISCO], x[NCISCO];
	struct bc_usl u;
	int i;

	for (i = 0; i < NCISCO; i++) {
		n[i] = cisco[i][0];
		x[i] = cisco[i][1];
	}
	CHECK(bc_ana_usl_fit(n, x, NCISCO, &u) == 0);
	/* the book's values, within usl4j's own 0.02% */
	CHECK_MSG(close_rel(995.6486, u.lambda, 2e-4), "lambda %.6f", u.lambda);
	CHECK_MSG(close_rel(0.02671591, u.sigma, 2e-4), "sigma %.8f", u.sigma);
	CHECK_MSG(close_rel(7.690945e-4, u.kappa, 2e-4), "kappa %.7g", u.kappa);
	CHECK_MSG(u.n_max == 35, "n_max %g", u.n_max);
	CHECK_MSG(close_rel(12341, u.x_max, 2e-4), "x_max %.1f", u.x_max);
	CHECK(u.r2 > 0.99);
	/* the linearized seed alone is biased (analysis.md: sigma 0.0202, kappa 8.8e-4) */
	CHECK_MSG(fabs(u.seed_sigma - 0.0202) < 0.002, "seed sigma %.4f", u.seed_sigma);
	CHECK_MSG(fabs(u.seed_kappa - 8.8e-4) < 0.5e-4, "seed kappa %.3g", u.seed_kappa);
	/* units do not matter: the same data in bytes/s */
	for (i = 0; i < NCISCO; i++)
		x[i] *= 1e7;
	CHECK(bc_ana_usl_fit(n, x, NCISCO, &u) == 0 && close_rel(0.02671591, u.sigma, 2e-4));
	/* fewer than six points is no fit */
	CHECK(bc_ana_usl_fit(n, x, 5, &u) == -EINVAL);
	x[2] = NAN;
	CHECK(bc_ana_usl_fit(n, x, NCISCO, &u) == -EINVAL);
}

static void test_kneedle(void)
{
	/* log2 N against a curve linear up to N=16, flat after: the knee is at N=16 */
	double lx[] = {0, 1, 2, 3, 4, 5, 6, 7}, y[] = {1, 2, 4, 8, 16, 16, 16, 16};
	double yl[] = {1, 2, 3, 4, 5, 6, 7, 8};
	double yc[10], xc[10];
	int i;

	CHECK(bc_ana_kneedle(lx, y, 8, 1.0) == 4);
	CHECK(bc_ana_kneedle(lx, yl, 8, 1.0) == -1); /* a straight line has no knee */
	CHECK(bc_ana_kneedle(lx, y, 2, 1.0) == -1);
	/* Kneedle paper's style of curve: y = -1/x + 5 on x in [1, 10]; the knee sits early */
	for (i = 0; i < 10; i++) {
		xc[i] = i + 1;
		yc[i] = -1.0 / xc[i] + 5;
	}
	i = bc_ana_kneedle(xc, yc, 10, 1.0);
	CHECK_MSG(i >= 1 && i <= 3, "knee index %d", i);
}

int main(void)
{
	test_usl();
	test_kneedle();
	TEST_DONE();
}
