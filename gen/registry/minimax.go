package registry

import (
	"fmt"
	"math/big"
)

// The polynomials of the math programs are minimax approximations derived
// here, when the generator runs, rather than coefficient lists typed in:
// a program states the function, the interval, the weight (relative error,
// mostly) and the powers it wants, and Remez's exchange finds the
// coefficients. Everything is math/big arithmetic (no float64 math library
// call), so the coefficients, and the generated code, are the same bytes on
// every machine that runs the generator.

// minimaxPrec is the precision of the fit, in bits: far beyond float64's,
// so that the fit's own rounding is no part of a program's error.
const minimaxPrec = 192

func bf(x float64) *big.Float { return new(big.Float).SetPrec(minimaxPrec).SetFloat64(x) }

func bnew() *big.Float { return new(big.Float).SetPrec(minimaxPrec) }

// A fitTarget is a function to approximate, f, and the weight of its error,
// w: the fit minimises the largest |w(x)*(f(x) - p(x))| over the interval
// (w = 1/f for relative error).
type fitTarget struct {
	f, w func(x *big.Float) *big.Float
}

// relative is the target f with its relative error weighed.
func relative(f func(x *big.Float) *big.Float) fitTarget {
	return fitTarget{f: f, w: func(x *big.Float) *big.Float {
		v := f(x)
		if v.Sign() == 0 {
			return bnew()
		}
		return bnew().Quo(bf(1), new(big.Float).SetPrec(minimaxPrec).Abs(v))
	}}
}

// minimax returns the coefficients c[k] of p(x) = sum c[k]*x^pows[k] that
// minimise max |w(x)*(f(x) - p(x))| over [lo, hi], and that maximum, by
// Remez's second algorithm on a grid of the interval. pows are increasing;
// when the lowest is m > 0 the fit is of f/x^m by the powers less m with
// weight w*|x|^m, an equivalent problem whose basis does not vanish at 0.
func minimax(t fitTarget, lo, hi float64, pows []int) ([]*big.Float, float64) {
	m := pows[0]
	basis := make([]int, len(pows))
	for i, p := range pows {
		basis[i] = p - m
	}
	n := len(basis) // unknowns besides the levelled error
	const gridN = 6000
	xs := make([]*big.Float, gridN+1)
	fs := make([]*big.Float, gridN+1)
	ws := make([]*big.Float, gridN+1)
	width := bnew().Sub(bf(hi), bf(lo))
	for j := range xs {
		x := bnew().Mul(width, bnew().Quo(bf(float64(j)), bf(gridN)))
		x.Add(x, bf(lo))
		xs[j] = x
		xm := bpow(x, m)
		if xm.Sign() == 0 { // the basis's zero: weight 0
			fs[j], ws[j] = bnew(), bnew()
			continue
		}
		fs[j] = bnew().Quo(t.f(x), xm)
		ws[j] = bnew().Mul(t.w(x), bnew().Abs(xm))
	}
	// The first reference: n+1 grid points spread as Chebyshev's
	// extrema, away from zeros of the weight.
	ref := make([]int, n+1)
	for i := range ref {
		c := bigCos(bnew().Quo(bnew().Mul(bigPi(minimaxPrec), bf(float64(n-i))), bf(float64(n))))
		u, _ := c.Float64() // in [-1, 1]: its grid position
		j := int((u + 1) / 2 * gridN)
		for ws[j].Sign() == 0 {
			j++
		}
		ref[i] = j
	}
	for i := 1; i < len(ref); i++ {
		if ref[i] <= ref[i-1] {
			ref[i] = ref[i-1] + 1
		}
	}
	var coef []*big.Float
	worst := 0.0
	for iter := 0; iter < 60; iter++ {
		coef = solveReference(xs, fs, ws, ref, basis)
		errs := make([]*big.Float, len(xs))
		for j := range xs {
			e := bnew().Sub(fs[j], bpoly(coef[:n], basis, xs[j]))
			errs[j] = e.Mul(e, ws[j])
		}
		next := alternatingExtrema(errs, n+1)
		if len(next) < n+1 {
			panic(fmt.Sprintf("registry: minimax on [%v, %v] of powers %v: %d alternations", lo, hi, pows, len(next)))
		}
		big0 := 0.0
		small := 0.0
		for i, j := range next {
			a, _ := bnew().Abs(errs[j]).Float64()
			if i == 0 || a < small {
				small = a
			}
			big0 = max(big0, a)
		}
		for j := range errs {
			a, _ := bnew().Abs(errs[j]).Float64()
			big0 = max(big0, a)
		}
		worst = big0
		ref = next
		if big0 <= small*(1+1e-9) {
			break
		}
	}
	return coef[:n], worst
}

// solveReference is the polynomial whose weighted error alternates with
// one magnitude E at the reference points (the coefficients, then E).
func solveReference(xs, fs, ws []*big.Float, ref []int, basis []int) []*big.Float {
	n := len(basis)
	a := make([][]*big.Float, n+1)
	for i, j := range ref {
		row := make([]*big.Float, n+2)
		for k, p := range basis {
			row[k] = bnew().Mul(ws[j], bpow(xs[j], p))
		}
		row[n] = bf(1)
		if i%2 == 1 {
			row[n] = bf(-1)
		}
		row[n+1] = bnew().Mul(ws[j], fs[j])
		a[i] = row
	}
	// Gaussian elimination with partial pivoting.
	for c := 0; c <= n; c++ {
		p := c
		for r := c + 1; r <= n; r++ {
			if bnew().Abs(a[r][c]).Cmp(bnew().Abs(a[p][c])) > 0 {
				p = r
			}
		}
		a[c], a[p] = a[p], a[c]
		for r := c + 1; r <= n; r++ {
			f := bnew().Quo(a[r][c], a[c][c])
			for k := c; k <= n+1; k++ {
				a[r][k].Sub(a[r][k], bnew().Mul(f, a[c][k]))
			}
		}
	}
	x := make([]*big.Float, n+1)
	for r := n; r >= 0; r-- {
		s := bnew().Set(a[r][n+1])
		for k := r + 1; k <= n; k++ {
			s.Sub(s, bnew().Mul(a[r][k], x[k]))
		}
		x[r] = s.Quo(s, a[r][r])
	}
	return x
}

// alternatingExtrema picks, from the errors on the grid, the largest of
// each run of one sign, then drops the smaller end while more than want
// remain.
func alternatingExtrema(errs []*big.Float, want int) []int {
	var ext []int
	sign := 0
	for j, e := range errs {
		s := e.Sign()
		if s == 0 {
			continue
		}
		if s != sign {
			ext = append(ext, j)
			sign = s
			continue
		}
		if last := ext[len(ext)-1]; bnew().Abs(e).Cmp(bnew().Abs(errs[last])) > 0 {
			ext[len(ext)-1] = j
		}
	}
	for len(ext) > want {
		first, last := bnew().Abs(errs[ext[0]]), bnew().Abs(errs[ext[len(ext)-1]])
		if first.Cmp(last) < 0 {
			ext = ext[1:]
		} else {
			ext = ext[:len(ext)-1]
		}
	}
	return ext
}

// bpow is x^p.
func bpow(x *big.Float, p int) *big.Float {
	r := bf(1)
	for range p {
		r.Mul(r, x)
	}
	return r
}

// bpoly is sum c[k] * x^pows[k].
func bpoly(c []*big.Float, pows []int, x *big.Float) *big.Float {
	s := bnew()
	for k, p := range pows {
		s.Add(s, bnew().Mul(c[k], bpow(x, p)))
	}
	return s
}

// bigCos is cos x for |x| <= 4, by its Taylor series.
func bigCos(x *big.Float) *big.Float {
	x2 := bnew().Mul(x, x)
	sum, term := bf(1), bf(1)
	for k := 1; k < 200; k++ {
		term.Mul(term, x2)
		term.Quo(term, bf(float64((2*k-1)*(2*k))))
		term.Neg(term)
		sum.Add(sum, term)
		if term.Sign() == 0 || term.MantExp(nil) < -minimaxPrec-8 {
			break
		}
	}
	return sum
}

// bigExp is e^x for |x| <= 1000: e^(x/2^k) by its series, squared k
// times.
func bigExp(x *big.Float) *big.Float {
	k := 0
	r := bnew().Set(x)
	for r.Sign() != 0 && r.MantExp(nil) > -4 {
		r.SetMantExp(r, -1)
		k++
	}
	sum, term := bf(1), bf(1)
	for i := 1; i < 200; i++ {
		term.Mul(term, r)
		term.Quo(term, bf(float64(i)))
		sum.Add(sum, term)
		if term.Sign() == 0 || term.MantExp(nil) < -minimaxPrec-8 {
			break
		}
	}
	for range k {
		sum.Mul(sum, sum)
	}
	return sum
}

// expm1Over is (e^x - 1 - x), exactly for small x too (its series).
func expm1Rest(x *big.Float) *big.Float {
	sum, term := bnew(), bnew().Mul(x, x)
	term.Quo(term, bf(2))
	for i := 3; i < 400; i++ {
		sum.Add(sum, term)
		term.Mul(term, x)
		term.Quo(term, bf(float64(i)))
		if term.Sign() == 0 || term.MantExp(nil) < sum.MantExp(nil)-minimaxPrec-8 {
			break
		}
	}
	return sum
}

// roundCoefs rounds fitted coefficients to T.
func roundCoefs(t Type, c []*big.Float) []float64 {
	out := make([]float64, len(c))
	for i, x := range c {
		out[i] = roundTo(t, x)
	}
	return out
}
