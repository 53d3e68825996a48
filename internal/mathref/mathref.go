// Package mathref holds the exact math functions that the math ops of elem
// (Exp, Log, ...) are measured against: math/big evaluations to Prec bits,
// far beyond a float64 ulp, and float64 forms for float32 arguments; and
// the error of a result in ulps of the exact value. The kernel tests and
// elembench -math use it; nothing in the library does.
package mathref

import (
	"math"
	"math/big"
)

// Func is one math function's references.
type Func struct {
	// Ref32 is the function in float64, whose error on float32 arguments
	// is far below a float32 ulp (package math's, or a plain formula).
	Ref32 func(float64) float64
	// Ref64 is the exact value to Prec bits: nil for NaN, ±Inf at poles
	// and beyond the range of float64.
	Ref64 func(float64) *big.Float
}

// Funcs are the references, by op name.
var Funcs = map[string]Func{
	"exp":     {math.Exp, Exp},
	"exp2":    {math.Exp2, func(x float64) *big.Float { return expOf(newBig().Mul(newBig().SetFloat64(x), ln2)) }},
	"expm1":   {math.Expm1, Expm1},
	"log":     {math.Log, Log},
	"log2":    {math.Log2, func(x float64) *big.Float { return quoOrNil(Log(x), ln2) }},
	"log10":   {math.Log10, func(x float64) *big.Float { return quoOrNil(Log(x), Log(10)) }},
	"log1p":   {math.Log1p, Log1p},
	"sigmoid": {Sigmoid64, Sigmoid},
	"tanh":    {math.Tanh, Tanh},
	"erf":     {math.Erf, Erf},
	"sin":     {math.Sin, func(x float64) *big.Float { return SinCos(x, false) }},
	"cos":     {math.Cos, func(x float64) *big.Float { return SinCos(x, true) }},
}

// ULP32 is the error of got in float32 ulps of the exact value ref; an
// infinity is exact only where ref rounds to it.
func ULP32(got float32, ref float64) float64 {
	if math.IsNaN(ref) {
		if got != got {
			return 0
		}
		return math.Inf(1)
	}
	if math.IsInf(float64(got), 0) || math.IsInf(ref, 0) {
		if float32(ref) == got {
			return 0
		}
		return math.Inf(1)
	}
	a := math.Abs(ref)
	e := -149
	if a >= 0x1p-126 {
		_, fe := math.Frexp(min(a, math.MaxFloat32))
		e = fe - 24
	}
	return math.Abs(float64(got)-ref) / math.Ldexp(1, e)
}

// Prec is the precision of the math/big references, in bits.
const Prec = 200

func newBig() *big.Float { return new(big.Float).SetPrec(Prec) }

// ln2 is ln 2 = sum 1/(k 2^k) to Prec bits.
var ln2 = func() *big.Float {
	sum, term := newBig(), newBig()
	for k := 1; k < Prec+20; k++ {
		term.SetMantExp(newBig().SetInt64(1), -k)
		term.Quo(term, newBig().SetInt64(int64(k)))
		sum.Add(sum, term)
	}
	return sum
}()

// Exp is e^x: 2^n e^r with r = x - n ln 2, |r| <= ln(2)/2, by its
// Taylor series.
func Exp(x float64) *big.Float { return expOf(newBig().SetFloat64(x)) }

func expOf(xb *big.Float) *big.Float {
	x, _ := xb.Float64()
	switch {
	case x > 710:
		return newBig().SetInf(false)
	case x < -746:
		return newBig()
	}
	n := math.Round(x / math.Ln2)
	r := newBig().Set(xb)
	r.Sub(r, newBig().Mul(ln2, newBig().SetFloat64(n)))
	sum, term := newBig().SetInt64(1), newBig().SetInt64(1)
	for i := int64(1); i < 80; i++ {
		term.Mul(term, r)
		term.Quo(term, newBig().SetInt64(i))
		sum.Add(sum, term)
		if term.Sign() == 0 || term.MantExp(nil) < -Prec-8 {
			break
		}
	}
	return sum.SetMantExp(sum, int(n))
}

// Log is log x for x > 0: x = m 2^e, m in [1/2, 1), log m = 2 atanh z
// with z = (m-1)/(m+1), by its series.
func Log(x float64) *big.Float {
	switch {
	case x == 0:
		return newBig().SetInf(true)
	case x < 0:
		return nil
	case x == 1: // the series' own error is far below every other result's ulp, not this one's
		return newBig()
	}
	return logOf(newBig().SetFloat64(x))
}

// logOf is log x for x > 0.
func logOf(x *big.Float) *big.Float {
	m := newBig()
	e := x.MantExp(m)
	z := newBig().Quo(newBig().Sub(m, newBig().SetInt64(1)), newBig().Add(m, newBig().SetInt64(1)))
	z2 := newBig().Mul(z, z)
	sum, pow := newBig().Set(z), newBig().Set(z)
	for k := int64(3); k < 400; k += 2 {
		pow.Mul(pow, z2)
		term := newBig().Quo(pow, newBig().SetInt64(k))
		sum.Add(sum, term)
		if term.Sign() == 0 || term.MantExp(nil) < -Prec-8 {
			break
		}
	}
	sum.Mul(sum, newBig().SetInt64(2))
	return sum.Add(sum, newBig().Mul(ln2, newBig().SetInt64(int64(e))))
}

// ULP64 is the error of got in float64 ulps of the exact value ref (nil
// for a NaN result); an infinity is exact only where ref rounds to it.
func ULP64(got float64, ref *big.Float) float64 {
	if ref == nil {
		if got != got {
			return 0
		}
		return math.Inf(1)
	}
	if r, _ := ref.Float64(); math.IsInf(got, 0) || math.IsInf(r, 0) {
		if r == got {
			return 0
		}
		return math.Inf(1)
	}
	if ref.Sign() == 0 {
		return math.Abs(got) / 0x1p-1074
	}
	e := max(ref.MantExp(nil)-53, -1074)
	d := newBig().Sub(newBig().SetFloat64(got), ref)
	d.SetMantExp(d, -e)
	v, _ := d.Float64()
	return math.Abs(v)
}

// Sigmoid64 is 1/(1 + e^-x) in float64 (Go's math has none), whose
// roundings are far below a float32 ulp.
func Sigmoid64(x float64) float64 {
	if x < 0 {
		e := math.Exp(x)
		return e / (1 + e)
	}
	return 1 / (1 + math.Exp(-x))
}

// Sigmoid is 1/(1 + e^-x).
func Sigmoid(x float64) *big.Float {
	e := Exp(-math.Abs(x))
	d := newBig().Add(e, newBig().SetInt64(1))
	if x < 0 {
		return e.Quo(e, d)
	}
	return d.Quo(newBig().SetInt64(1), d)
}

// Tanh is (1 - e^-2|x|)/(1 + e^-2|x|) with x's sign.
func Tanh(x float64) *big.Float {
	if math.Abs(x) < 0x1p-30 { // x - x^3/3
		xb := newBig().SetFloat64(x)
		return xb.Sub(xb, newBig().Quo(newBig().Mul(xb, newBig().Mul(xb, xb)), newBig().SetInt64(3)))
	}
	e := Exp(-2 * math.Abs(x)) // -2|x| is exact
	r := newBig().Quo(newBig().Sub(newBig().SetInt64(1), e), newBig().Add(newBig().SetInt64(1), e))
	if x < 0 {
		r.Neg(r)
	}
	return r
}

// Expm1 is e^x - 1, by its series for tiny x (e^x would need 1100 bits).
func Expm1(x float64) *big.Float {
	if math.Abs(x) < 0x1p-30 {
		xb := newBig().SetFloat64(x)
		x2 := newBig().Mul(xb, xb)
		r := newBig().Add(xb, newBig().Quo(x2, newBig().SetInt64(2)))
		return r.Add(r, newBig().Quo(newBig().Mul(x2, xb), newBig().SetInt64(6)))
	}
	e := Exp(x)
	return e.Sub(e, newBig().SetInt64(1))
}

// Log1p is log(1 + x), 1 + x formed exactly.
func Log1p(x float64) *big.Float {
	u := newBig().Add(newBig().SetFloat64(x), newBig().SetInt64(1))
	if u.Sign() <= 0 {
		if u.Sign() == 0 {
			return newBig().SetInf(true)
		}
		return nil
	}
	if math.Abs(x) < 0x1p-30 { // x - x^2/2 + x^3/3: 1 + x would need 1100 bits
		xb := newBig().SetFloat64(x)
		x2 := newBig().Mul(xb, xb)
		r := newBig().Sub(xb, newBig().Quo(x2, newBig().SetInt64(2)))
		return r.Add(r, newBig().Quo(newBig().Mul(x2, xb), newBig().SetInt64(3)))
	}
	return logOf(u)
}

func quoOrNil(x, y *big.Float) *big.Float {
	if x == nil || x.IsInf() {
		return x
	}
	return newBig().Quo(x, y)
}

// atanInv is atan(1/k) by its series, to prec bits.
func atanInv(k int64, prec uint) *big.Float {
	z := new(big.Float).SetPrec(prec).Quo(new(big.Float).SetPrec(prec).SetInt64(1), new(big.Float).SetPrec(prec).SetInt64(k))
	z2 := new(big.Float).SetPrec(prec).Mul(z, z)
	sum, pow := new(big.Float).SetPrec(prec).Set(z), new(big.Float).SetPrec(prec).Set(z)
	for n := int64(3); pow.MantExp(nil) > -int(prec)-8; n += 2 {
		pow.Mul(pow, z2)
		term := new(big.Float).SetPrec(prec).Quo(pow, new(big.Float).SetPrec(prec).SetInt64(n))
		if (n/2)%2 == 1 {
			term.Neg(term)
		}
		sum.Add(sum, term)
	}
	return sum
}

// machinPi is 16 atan(1/5) - 4 atan(1/239) (Machin), to prec bits.
func machinPi(prec uint) *big.Float {
	p := new(big.Float).SetPrec(prec).Mul(atanInv(5, prec), new(big.Float).SetPrec(prec).SetInt64(16))
	return p.Sub(p, new(big.Float).SetPrec(prec).Mul(atanInv(239, prec), new(big.Float).SetPrec(prec).SetInt64(4)))
}

// pi is pi to Prec bits.
var pi = machinPi(Prec)

// Erf is 2/sqrt(pi) * sum (-1)^n x^(2n+1)/(n! (2n+1)) below 6 (whose
// terms lose 52 of the Prec bits to cancellation), and 1 - erfc by its
// asymptotic series from 6 on, x's sign kept.
func Erf(x float64) *big.Float {
	ax := math.Abs(x)
	var r *big.Float
	if ax < 6 {
		xb := newBig().SetFloat64(ax)
		x2 := newBig().Mul(xb, xb)
		sum, pow := newBig().Set(xb), newBig().Set(xb)
		for n := int64(1); n < 400; n++ {
			pow.Mul(pow, x2)
			pow.Quo(pow, newBig().SetInt64(n))
			pow.Neg(pow)
			sum.Add(sum, newBig().Quo(pow, newBig().SetInt64(2*n+1)))
			if pow.Sign() == 0 || pow.MantExp(nil) < -Prec-64 {
				break
			}
		}
		r = sum.Mul(sum, newBig().Quo(newBig().SetInt64(2), newBig().Sqrt(pi)))
	} else {
		// erfc x ~ e^-x^2/(x sqrt(pi)) (1 - 1/(2x^2) + 3/(4x^4) - 15/(8x^6)).
		inv := 1 / (2 * ax * ax)
		series := 1 - inv + 3*inv*inv - 15*inv*inv*inv
		e := expOf(newBig().SetFloat64(-ax * ax))
		e.Quo(e, newBig().Mul(newBig().SetFloat64(ax), newBig().Sqrt(pi)))
		e.Mul(e, newBig().SetFloat64(series))
		r = newBig().Sub(newBig().SetInt64(1), e)
	}
	if x < 0 {
		r.Neg(r)
	}
	return r
}

// Func2 is a math function of two arguments' references.
type Func2 struct {
	Ref32 func(x, y float64) float64
	Ref64 func(x, y float64) *big.Float
}

// Funcs2 are the references of the functions of two arguments, by op name.
var Funcs2 = map[string]Func2{
	"hypot":  {math.Hypot, Hypot},
	"atan2":  {math.Atan2, Atan2},
	"pow":    {math.Pow, Pow},
	"expsub": {ExpSub32, ExpSub},
}

// Atan2 is the angle of (x, y): atan(|y|/|x|) or pi/2 - atan(|x|/|y|) by
// atan's series after two argument halvings (atan z = 2 atan(z/(1 +
// sqrt(1 + z^2)))), moved to x's half-plane and given y's sign; Go's
// special cases (zeros, infinities) as math.Atan2 has them, nil for NaN.
func Atan2(y, x float64) *big.Float {
	if x != x || y != y {
		return nil
	}
	if y == 0 || math.IsInf(x, 0) || math.IsInf(y, 0) {
		v := math.Atan2(y, x) // 0 or a multiple of pi/4: which one is exact
		if v == 0 {
			return newBig().SetFloat64(v)
		}
		return newBig().Mul(pi, newBig().SetFloat64(math.Round(4*v/math.Pi)/4))
	}
	ax, ay := newBig().SetFloat64(math.Abs(x)), newBig().SetFloat64(math.Abs(y))
	var a *big.Float
	if ay.Cmp(ax) <= 0 {
		a = atanSmall(newBig().Quo(ay, ax))
	} else {
		a = newBig().Sub(newBig().Quo(pi, newBig().SetInt64(2)), atanSmall(newBig().Quo(ax, ay)))
	}
	if math.Signbit(x) {
		a.Sub(pi, a)
	}
	if math.Signbit(y) {
		a.Neg(a)
	}
	return a
}

// atanSmall is atan z for 0 <= z <= 1: two halvings bring z under 0.2,
// where the series converges by 5 bits a term.
func atanSmall(z *big.Float) *big.Float {
	one := newBig().SetInt64(1)
	for range 2 {
		s := newBig().Add(one, newBig().Mul(z, z))
		z = newBig().Quo(z, s.Add(one, s.Sqrt(s)))
	}
	z2 := newBig().Mul(z, z)
	sum, pow := newBig().Set(z), newBig().Set(z)
	for n := int64(3); n < 400; n += 2 {
		pow.Mul(pow, z2)
		term := newBig().Quo(pow, newBig().SetInt64(n))
		if (n/2)%2 == 1 {
			term.Neg(term)
		}
		sum.Add(sum, term)
		if pow.Sign() == 0 || pow.MantExp(nil) < -Prec-8 {
			break
		}
	}
	return sum.Mul(sum, newBig().SetInt64(4))
}

// Hypot is sqrt(x^2 + y^2), the squares and their sum exact.
func Hypot(x, y float64) *big.Float {
	if math.IsInf(x, 0) || math.IsInf(y, 0) {
		return newBig().SetInf(false)
	}
	if x != x || y != y {
		return nil
	}
	xb, yb := newBig().SetFloat64(x), newBig().SetFloat64(y)
	s := newBig().Add(newBig().Mul(xb, xb), newBig().Mul(yb, yb))
	return s.Sqrt(s)
}

// wide is the precision of the reduction of sin's and cos's arguments:
// x up to 2^1024 less a multiple of pi/2 keeps Prec bits.
const wide = 1024 + 2*Prec

// halfPi is pi/2 to wide bits.
var halfPi = func() *big.Float {
	p := machinPi(wide)
	return p.Quo(p, new(big.Float).SetPrec(wide).SetInt64(2))
}()

// SinCos is sin x (cos x if cos): x = n*pi/2 + r exactly to Prec bits,
// then the series of sin or cos at r by n's quadrant; nil for NaN and
// ±Inf.
func SinCos(x float64, cos bool) *big.Float {
	if math.IsInf(x, 0) || x != x {
		return nil
	}
	xb := new(big.Float).SetPrec(wide).SetFloat64(x)
	q := new(big.Float).SetPrec(wide).Quo(xb, halfPi)
	n, _ := q.Int(nil)
	if frac := new(big.Float).SetPrec(wide).Sub(q, new(big.Float).SetPrec(wide).SetInt(n)); frac.Abs(frac).Cmp(big.NewFloat(0.5)) > 0 {
		n.Add(n, big.NewInt(int64(frac.Sign()*q.Sign())))
	}
	r := newBig().Sub(xb, new(big.Float).SetPrec(wide).Mul(halfPi, new(big.Float).SetPrec(wide).SetInt(n)))
	quadrant := new(big.Int).And(n, big.NewInt(3)).Int64()
	if cos {
		quadrant++
	}
	// sin r: r - r^3/3! + ...; cos r: 1 - r^2/2! + ...
	sum, term := newBig(), newBig()
	if quadrant%2 == 0 {
		term.Set(r)
	} else {
		term.SetInt64(1)
	}
	r2 := newBig().Mul(r, r)
	for k := 1 - quadrant%2; ; k += 2 {
		sum.Add(sum, term)
		term.Mul(term, r2)
		term.Quo(term, newBig().SetInt64(-(k+1)*(k+2)))
		if term.Sign() == 0 || term.MantExp(nil) < sum.MantExp(nil)-Prec-8 {
			break
		}
	}
	if quadrant%4 >= 2 {
		sum.Neg(sum)
	}
	return sum
}

// Pow is x^y = e^(y log|x|), the sign of x for an odd integer y; Go's
// special cases (zeros, infinities, a negative x) as math.Pow has them,
// whose results there are exact; nil for NaN.
func Pow(x, y float64) *big.Float {
	special := x == 0 || y == 0 || x == 1 || y == 1 || math.IsInf(x, 0) || math.IsInf(y, 0)
	if v := math.Pow(x, y); v != v {
		return nil
	} else if special {
		return newBig().SetFloat64(v)
	}
	l := Log(math.Abs(x))
	r := expOf(newBig().Mul(l, newBig().SetFloat64(y)))
	if x < 0 && math.Mod(y, 2) != 0 {
		r.Neg(r)
	}
	return r
}

// ExpSub32 is e^(x - y) with the difference rounded as the op rounds it:
// in float32 where both are float32 values, else in float64.
func ExpSub32(x, y float64) float64 {
	if float64(float32(x)) == x && float64(float32(y)) == y {
		return math.Exp(float64(float32(x) - float32(y)))
	}
	return math.Exp(x - y)
}

// ExpSub is e^(x - y) with the difference rounded in float64, nil for NaN.
func ExpSub(x, y float64) *big.Float {
	if d := x - y; d == d {
		return Exp(d)
	}
	return nil
}
