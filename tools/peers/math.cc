// The C and C++ side of issue 23's speed table (vector math): Eigen's array
// functions, glibc's libmvec (the loops below vectorise into its _ZGV*
// kernels under -ffast-math and OpenMP's simd) and XNNPACK's sigmoid, ns per
// element at n = 16000 (medians of 31 timings of 200 calls), one thread, on
// the arguments elembench -math uses, and the largest error in ulps over every
// 4096th float32 bit pattern against the double function (float64: 2^16
// arguments in (-10, 10) against long double). Build and run (Debian:
// apt-get install libeigen3-dev libxnnpack-dev libpthreadpool-dev, the last
// for xnnpack.h's include):
//
//   g++ -O3 -march=native -ffast-math -fopenmp -I/usr/include/eigen3 \
//       tools/peers/math.cc -o /tmp/mathpeers -lXNNPACK -lmvec -lm && /tmp/mathpeers
//
// (-ffast-math is what makes GCC call libmvec; it also lets Eigen use its own
// fast paths, which is how both are used.)
#include <Eigen/Dense>
#include <unsupported/Eigen/SpecialFunctions>
#include <xnnpack.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

static const int N = 16000;

static double med(const std::function<void()> &f) {
  std::vector<double> ts;
  for (int r = 0; r < 31; r++) {
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < 200; i++) f();
    auto t1 = std::chrono::steady_clock::now();
    ts.push_back(std::chrono::duration<double, std::nano>(t1 - t0).count() / 200);
  }
  std::sort(ts.begin(), ts.end());
  return ts[ts.size() / 2] / N;
}

static double arg(const std::string &name, int i) {
  double u = double((long long)i * 7919 % 4000) / 4000;
  if (name == "sin" || name == "cos") return -100 + 200 * u;
  if (name.rfind("log", 0) == 0) return 1e-3 + 100 * u;
  return -10 + 20 * u;
}

// libmvec: GCC vectorises these loops into calls of its vector variants.
#define MVEC_LOOP(T, F)                                                           \
  static void mvec_##F##_##T(T *__restrict d, const T *__restrict a, int n) { \
    _Pragma("omp simd") for (int i = 0; i < n; i++) d[i] = F(a[i]);            \
  }
MVEC_LOOP(float, expf)
MVEC_LOOP(float, logf)
MVEC_LOOP(float, sinf)
MVEC_LOOP(float, cosf)
MVEC_LOOP(float, tanhf)
MVEC_LOOP(float, erff)
MVEC_LOOP(double, exp)
MVEC_LOOP(double, log)
MVEC_LOOP(double, sin)
MVEC_LOOP(double, cos)
MVEC_LOOP(double, tanh)
MVEC_LOOP(double, erf)

// ulp is the error in ulps where the exact value is a normal number of T
// (the peers built with -ffast-math flush subnormals, which is their
// documented trade, not counted here), else 0.
//
// -ffast-math lets GCC assume that no value is a NaN or infinite, and it
// folds isfinite, isnan and comparisons with NaN accordingly (this printed
// "nan ulp" for every float32 peer), so the classes are read from the bits:
// a result that is not finite where the exact value is counts as infinitely
// far.
static int expField(double x) {
  uint64_t b;
  std::memcpy(&b, &x, 8);
  return int(b >> 52) & 0x7ff;
}

template <typename T> static double ulp(T got, long double ref) {
  long double lo = sizeof(T) == 4 ? 1.1754944e-38L : 2.2250738585072014e-308L;
  long double hi = sizeof(T) == 4 ? 3.4028234663852886e38L : 1.7976931348623157e308L;
  if (expField(double(ref)) == 0x7ff || !(std::fabs(ref) >= lo && std::fabs(ref) <= hi)) return 0;
  if (expField(double(got)) == 0x7ff) return 1e300;
  int e;
  std::frexp((double)std::fabs((double)ref), &e);
  int p = sizeof(T) == 4 ? 24 : 53, emin = sizeof(T) == 4 ? -149 : -1074;
  long double u = std::ldexp((long double)1, std::max(e - p, emin));
  return (double)(std::fabs((long double)got - ref) / u);
}

static long double ref(const std::string &f, long double x) {
  if (f == "exp") return expl(x);
  if (f == "log") return logl(x);
  if (f == "sin") return sinl(x);
  if (f == "cos") return cosl(x);
  if (f == "tanh") return tanhl(x);
  if (f == "erf") return erfl(x);
  if (f == "sigmoid") return 1 / (1 + expl(-x));
  return NAN;
}

template <typename T> struct Peer {
  std::string lib, fn;
  std::function<void(T *, const T *, int)> run;
};

template <typename T> static void measure(const std::vector<Peer<T>> &peers) {
  const char *type = sizeof(T) == 4 ? "float32" : "float64";
  for (auto &p : peers) {
    std::vector<T> a(N), d(N);
    for (int i = 0; i < N; i++) a[i] = T(arg(p.fn, i));
    double t = med([&] { p.run(d.data(), a.data(), N); });
    std::vector<T> xs;
    if (sizeof(T) == 4) {
      for (uint64_t b = 0; b < (1ull << 32); b += 4096) {
        uint32_t bits = uint32_t(b);
        float x;
        std::memcpy(&x, &bits, 4);
        if (((bits >> 23) & 0xff) == 0xff || std::fabs(x) < 1.1754944e-38f) continue;
        if (p.fn == "log" && !(x > 0)) continue;
        if ((p.fn == "sin" || p.fn == "cos") && !(std::fabs(x) < 1e4f)) continue;
        xs.push_back(T(x));
      }
    } else {
      uint64_t s = 1;
      for (int i = 0; i < (1 << 16); i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        double x = -10 + 20 * double(s >> 11) / double(1ull << 53);
        if (p.fn == "log") x = std::fabs(x) + 1e-3;
        xs.push_back(T(x));
      }
    }
    std::vector<T> ys(xs.size());
    p.run(ys.data(), xs.data(), int(xs.size()));
    double worst = 0;
    for (size_t i = 0; i < xs.size(); i++) worst = std::max(worst, ulp(ys[i], ref(p.fn, (long double)xs[i])));
    if (worst >= 1e300)
      std::printf("%-8s %-8s %-8s %10.3f ns/elem        inf ulp (a result not finite)\n", p.fn.c_str(), type, p.lib.c_str(), t);
    else
      std::printf("%-8s %-8s %-8s %10.3f ns/elem %10.2f ulp\n", p.fn.c_str(), type, p.lib.c_str(), t, worst);
  }
}

template <typename T> using Arr = Eigen::Map<Eigen::Array<T, Eigen::Dynamic, 1>>;
template <typename T> using CArr = Eigen::Map<const Eigen::Array<T, Eigen::Dynamic, 1>>;

#define EIGEN_PEER(T, NAME, EXPR) \
  Peer<T>{"eigen", NAME, [](T *d, const T *a, int n) { Arr<T>(d, n) = CArr<T>(a, n).EXPR(); }}

int main() {
  xnn_initialize(nullptr);
  xnn_operator_t sig = nullptr;
  xnn_create_sigmoid_nc_f32(1, 1, 1, 0, &sig);
  std::vector<Peer<float>> f32 = {
      EIGEN_PEER(float, "exp", exp),     EIGEN_PEER(float, "log", log),     EIGEN_PEER(float, "tanh", tanh),
      EIGEN_PEER(float, "sigmoid", logistic), EIGEN_PEER(float, "sin", sin), EIGEN_PEER(float, "cos", cos),
      EIGEN_PEER(float, "erf", erf),
      {"libmvec", "exp", mvec_expf_float},   {"libmvec", "log", mvec_logf_float},
      {"libmvec", "sin", mvec_sinf_float},   {"libmvec", "cos", mvec_cosf_float},
      {"libmvec", "tanh", mvec_tanhf_float}, {"libmvec", "erf", mvec_erff_float},
      {"xnnpack", "sigmoid",
       [&](float *d, const float *a, int n) {
         xnn_setup_sigmoid_nc_f32(sig, n, a, d, nullptr);
         xnn_run_operator(sig, nullptr);
       }},
  };
  std::vector<Peer<double>> f64 = {
      EIGEN_PEER(double, "exp", exp),   EIGEN_PEER(double, "log", log), EIGEN_PEER(double, "tanh", tanh),
      EIGEN_PEER(double, "sin", sin),   EIGEN_PEER(double, "cos", cos), EIGEN_PEER(double, "erf", erf),
      {"libmvec", "exp", mvec_exp_double}, {"libmvec", "log", mvec_log_double},
      {"libmvec", "sin", mvec_sin_double}, {"libmvec", "cos", mvec_cos_double},
      {"libmvec", "tanh", mvec_tanh_double}, {"libmvec", "erf", mvec_erf_double},
  };
  measure(f32);
  measure(f64);
}
