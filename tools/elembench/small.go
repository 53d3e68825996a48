package main

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/simdkit/elem"
)

// smallSizes are the lengths of -small: the short calls that must not lose
// to the loop they replace, and one long call for scale.
var smallSizes = []int{1, 2, 4, 8, 16, 32, 64, 1000}

// smallWorstUpTo is the longest length counted in -small's last line.
const smallWorstUpTo = 16

// smallInner is how many calls one timed function makes, so that the
// closure call around them does not count: each loop below is what a user
// writes in place of the call, compiled inline in that function as it
// would be in theirs.
const smallInner = 100

// smallCall is one row of -small: for a length, the elem call and the
// plain loop over the same data, each run smallInner times.
type smallCall struct {
	name string
	make func(n int) (call, loop func())
}

// shiftCount is the count of the Shl row: a variable, as Shl's is, so that
// the loop does not get the cheaper shift by a constant.
var shiftCount uint = 3

// smallData returns three slices of n values of T that no op turns into
// NaN or Inf, and a mask.
func smallData[T elem.Number](n int) (a, b, c []T, mask []bool) {
	a, b, c, mask = make([]T, n), make([]T, n), make([]T, n), make([]bool, n)
	for i := range a {
		a[i], b[i], c[i], mask[i] = T(i%7+1), T(i%5+2), T(3), i%3 == 0
	}
	return a, b, c, mask
}

// smallCalls are the rows of -small: a call of each family and form, on
// float32 and on a few other types, and the reductions.
func smallCalls() []smallCall {
	return []smallCall{
		{"Add", func(n int) (func(), func()) {
			a, b, _, _ := smallData[float32](n)
			d := make([]float32, n)
			return func() {
					for range smallInner {
						elem.Add(d, a, b)
					}
				}, func() {
					for range smallInner {
						for i := range d {
							d[i] = a[i] + b[i]
						}
					}
				}
		}},
		{"AddScalar", func(n int) (func(), func()) {
			a, _, _, _ := smallData[float32](n)
			d := make([]float32, n)
			return func() {
					for range smallInner {
						elem.AddScalar(d, a, 2)
					}
				}, func() {
					for range smallInner {
						for i := range d {
							d[i] = a[i] + 2
						}
					}
				}
		}},
		{"ScalarSub", func(n int) (func(), func()) {
			a, _, _, _ := smallData[float32](n)
			d := make([]float32, n)
			return func() {
					for range smallInner {
						elem.ScalarSub(d, 2, a)
					}
				}, func() {
					for range smallInner {
						for i := range d {
							d[i] = 2 - a[i]
						}
					}
				}
		}},
		{"Mul", func(n int) (func(), func()) {
			a, b, _, _ := smallData[float32](n)
			d := make([]float32, n)
			return func() {
					for range smallInner {
						elem.Mul(d, a, b)
					}
				}, func() {
					for range smallInner {
						for i := range d {
							d[i] = a[i] * b[i]
						}
					}
				}
		}},
		{"Div", func(n int) (func(), func()) {
			a, b, _, _ := smallData[float32](n)
			d := make([]float32, n)
			return func() {
					for range smallInner {
						elem.Div(d, a, b)
					}
				}, func() {
					for range smallInner {
						for i := range d {
							d[i] = a[i] / b[i]
						}
					}
				}
		}},
		{"Max", func(n int) (func(), func()) {
			a, b, _, _ := smallData[float32](n)
			d := make([]float32, n)
			return func() {
					for range smallInner {
						elem.Max(d, a, b)
					}
				}, func() {
					for range smallInner {
						for i := range d {
							d[i] = max(a[i], b[i])
						}
					}
				}
		}},
		{"Neg", func(n int) (func(), func()) {
			a, _, _, _ := smallData[float32](n)
			d := make([]float32, n)
			return func() {
					for range smallInner {
						elem.Neg(d, a)
					}
				}, func() {
					for range smallInner {
						for i := range d {
							d[i] = -a[i]
						}
					}
				}
		}},
		{"Abs", func(n int) (func(), func()) {
			a, _, _, _ := smallData[float32](n)
			d := make([]float32, n)
			return func() {
					for range smallInner {
						elem.Abs(d, a)
					}
				}, func() {
					for range smallInner {
						for i := range d {
							d[i] = float32(math.Abs(float64(a[i])))
						}
					}
				}
		}},
		{"Sqrt", func(n int) (func(), func()) {
			a, _, _, _ := smallData[float32](n)
			d := make([]float32, n)
			return func() {
					for range smallInner {
						elem.Sqrt(d, a)
					}
				}, func() {
					for range smallInner {
						for i := range d {
							d[i] = float32(math.Sqrt(float64(a[i])))
						}
					}
				}
		}},
		{"Floor", func(n int) (func(), func()) {
			a, _, _, _ := smallData[float32](n)
			d := make([]float32, n)
			return func() {
					for range smallInner {
						elem.Floor(d, a)
					}
				}, func() {
					for range smallInner {
						for i := range d {
							d[i] = float32(math.Floor(float64(a[i])))
						}
					}
				}
		}},
		{"Lt", func(n int) (func(), func()) {
			a, b, _, _ := smallData[float32](n)
			d := make([]bool, n)
			return func() {
					for range smallInner {
						elem.Lt(d, a, b)
					}
				}, func() {
					for range smallInner {
						for i := range d {
							d[i] = a[i] < b[i]
						}
					}
				}
		}},
		{"GtScalar", func(n int) (func(), func()) {
			a, _, _, _ := smallData[float32](n)
			d := make([]bool, n)
			return func() {
					for range smallInner {
						elem.GtScalar(d, a, 3)
					}
				}, func() {
					for range smallInner {
						for i := range d {
							d[i] = a[i] > 3
						}
					}
				}
		}},
		{"FMA", func(n int) (func(), func()) {
			a, b, c, _ := smallData[float32](n)
			d := make([]float32, n)
			return func() {
					for range smallInner {
						elem.FMA(d, a, b, c)
					}
				}, func() {
					for range smallInner {
						for i := range d {
							d[i] = float32(math.FMA(float64(a[i]), float64(b[i]), float64(c[i])))
						}
					}
				}
		}},
		{"MulScalarAdd", func(n int) (func(), func()) {
			a, _, c, _ := smallData[float32](n)
			d := make([]float32, n)
			return func() {
					for range smallInner {
						elem.MulScalarAdd(d, a, 2, c)
					}
				}, func() {
					for range smallInner {
						for i := range d {
							d[i] = float32(math.FMA(float64(a[i]), 2, float64(c[i])))
						}
					}
				}
		}},
		{"Clamp", func(n int) (func(), func()) {
			a, _, _, _ := smallData[float32](n)
			d := make([]float32, n)
			return func() {
					for range smallInner {
						elem.Clamp(d, a, 2, 5)
					}
				}, func() {
					for range smallInner {
						for i := range d {
							d[i] = min(max(a[i], 2), 5)
						}
					}
				}
		}},
		{"Select", func(n int) (func(), func()) {
			a, b, _, m := smallData[float32](n)
			d := make([]float32, n)
			return func() {
					for range smallInner {
						elem.Select(d, m, a, b)
					}
				}, func() {
					for range smallInner {
						for i := range d {
							if m[i] {
								d[i] = a[i]
							} else {
								d[i] = b[i]
							}
						}
					}
				}
		}},
		{"And int32", func(n int) (func(), func()) {
			a, b, _, _ := smallData[int32](n)
			d := make([]int32, n)
			return func() {
					for range smallInner {
						elem.And(d, a, b)
					}
				}, func() {
					for range smallInner {
						for i := range d {
							d[i] = a[i] & b[i]
						}
					}
				}
		}},
		{"Shl int32", func(n int) (func(), func()) {
			a, _, _, _ := smallData[int32](n)
			d := make([]int32, n)
			return func() {
					for range smallInner {
						elem.Shl(d, a, shiftCount)
					}
				}, func() {
					for range smallInner {
						for i := range d {
							d[i] = a[i] << shiftCount
						}
					}
				}
		}},
		{"Add int64", func(n int) (func(), func()) {
			a, b, _, _ := smallData[int64](n)
			d := make([]int64, n)
			return func() {
					for range smallInner {
						elem.Add(d, a, b)
					}
				}, func() {
					for range smallInner {
						for i := range d {
							d[i] = a[i] + b[i]
						}
					}
				}
		}},
		{"Add float64", func(n int) (func(), func()) {
			a, b, _, _ := smallData[float64](n)
			d := make([]float64, n)
			return func() {
					for range smallInner {
						elem.Add(d, a, b)
					}
				}, func() {
					for range smallInner {
						for i := range d {
							d[i] = a[i] + b[i]
						}
					}
				}
		}},
		{"Div float64", func(n int) (func(), func()) {
			a, b, _, _ := smallData[float64](n)
			d := make([]float64, n)
			return func() {
					for range smallInner {
						elem.Div(d, a, b)
					}
				}, func() {
					for range smallInner {
						for i := range d {
							d[i] = a[i] / b[i]
						}
					}
				}
		}},
		{"FMA float64", func(n int) (func(), func()) {
			a, b, c, _ := smallData[float64](n)
			d := make([]float64, n)
			return func() {
					for range smallInner {
						elem.FMA(d, a, b, c)
					}
				}, func() {
					for range smallInner {
						for i := range d {
							d[i] = math.FMA(a[i], b[i], c[i])
						}
					}
				}
		}},
		{"Convert f64", func(n int) (func(), func()) {
			a, _, _, _ := smallData[float32](n)
			d := make([]float64, n)
			return func() {
					for range smallInner {
						elem.Convert(d, a)
					}
				}, func() {
					for range smallInner {
						for i := range d {
							d[i] = float64(a[i])
						}
					}
				}
		}},
		{"Sum", func(n int) (func(), func()) {
			a, _, _, _ := smallData[float32](n)
			return func() {
					for range smallInner {
						sink += float64(elem.Sum(a))
					}
				}, func() {
					for range smallInner {
						var s float32
						for _, x := range a {
							s += x
						}
						sink += float64(s)
					}
				}
		}},
		{"Dot", func(n int) (func(), func()) {
			a, b, _, _ := smallData[float32](n)
			return func() {
					for range smallInner {
						sink += float64(elem.Dot(a, b))
					}
				}, func() {
					for range smallInner {
						var s float32
						for i := range a {
							s += a[i] * b[i]
						}
						sink += float64(s)
					}
				}
		}},
		{"MaxOf", func(n int) (func(), func()) {
			a, _, _, _ := smallData[float32](n)
			return func() {
					for range smallInner {
						sink += float64(elem.MaxOf(a))
					}
				}, func() {
					for range smallInner {
						m := a[0]
						for _, x := range a[1:] {
							m = max(m, x)
						}
						sink += float64(m)
					}
				}
		}},
	}
}

// reportSmall times each call of smallCalls beside its plain loop at every
// length of smallSizes (call and loop alternating timing by timing), and
// ends with the line "small: worst elem/loop at n<=16 = R": the largest
// ratio of a call's time to its loop's up to smallWorstUpTo elements.
func reportSmall(w io.Writer, cfg config) {
	fmt.Fprintf(w, "small calls (%s; float32 unless named): ns per call, elem / plain loop = ratio, medians of %d timings of %d calls\n",
		elem.Implementation(), cfg.reps, smallInner)
	head := []string{fmt.Sprintf("%-13s", "call")}
	for _, n := range smallSizes {
		head = append(head, fmt.Sprintf("%20s", fmt.Sprintf("n=%d", n)))
	}
	fmt.Fprintln(w, strings.Join(head, " "))
	worst, worstAt := 0.0, ""
	for _, c := range smallCalls() {
		row := []string{fmt.Sprintf("%-13s", c.name)}
		for _, n := range smallSizes {
			call, loop := c.make(n)
			ct, lt := measurePair(call, loop, cfg)
			ce, le := ct.median/smallInner, lt.median/smallInner
			ratio := ce / le
			if n <= smallWorstUpTo && ratio > worst {
				worst, worstAt = ratio, fmt.Sprintf("%s n=%d", c.name, n)
			}
			row = append(row, fmt.Sprintf("%20s", fmt.Sprintf("%.1f%s/%.1f%s=%.2f", ce, noisyIf(ct), le, noisyIf(lt), ratio)))
		}
		fmt.Fprintln(w, strings.Join(row, " "))
	}
	fmt.Fprintf(w, "(worst: %s)\n", worstAt)
	fmt.Fprintf(w, "small: worst elem/loop at n<=16 = %.2f\n", worst)
}

// noisyIf is the noisy mark when t is noisy, else nothing.
func noisyIf(t timing) string {
	if t.noisy() {
		return noisyMark
	}
	return ""
}
