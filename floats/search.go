// Copyright ©2013 The Gonum Authors. All rights reserved.
// Use of this code is governed by a BSD-style
// license that can be found in the LICENSE-gonum file.

package floats

import (
	"errors"
	"math"
	"sort"

	"github.com/simdkit/elem"
)

// Max returns the maximum value in the input slice. If the slice is empty, Max will panic.
//
// As gonum's, it skips NaNs (a slice of NaNs only gives s[0]), and of -0
// and +0 it gives the first.
func Max(s []float64) float64 {
	return s[MaxIdx(s)]
}

// MaxIdx returns the index of the maximum value in the input slice. If several
// entries have the maximum value, the first such index is returned.
// It panics if s is zero length.
//
// NaNs are skipped and -0 equals +0, as in gonum: the index of the first
// greatest value that is not NaN, or 0 if every value is NaN.
func MaxIdx(s []float64) int {
	if len(s) == 0 {
		panic(zeroLength)
	}
	return firstExtreme(s, elem.ArgMax(s), func(v, m float64) bool { return v > m })
}

// Min returns the minimum value in the input slice.
// It panics if s is zero length.
//
// As gonum's, it skips NaNs, and of -0 and +0 it gives the first.
func Min(s []float64) float64 {
	return s[MinIdx(s)]
}

// MinIdx returns the index of the minimum value in the input slice. If several
// entries have the minimum value, the first such index is returned.
// It panics if s is zero length.
//
// NaNs are skipped and -0 equals +0, as in MaxIdx.
func MinIdx(s []float64) int {
	if len(s) == 0 {
		panic(zeroLength)
	}
	return firstExtreme(s, elem.ArgMin(s), func(v, m float64) bool { return v < m })
}

// firstExtreme turns i, elem's ArgMax or ArgMin of s, into gonum's answer:
// elem's is the first NaN if there is one, where gonum skips NaNs (its
// loop then runs, with better as its comparison), and tells -0 from +0,
// where gonum takes the first zero of either sign.
func firstExtreme(s []float64, i int, better func(v, m float64) bool) int {
	switch v := s[i]; {
	case v == 0:
		for j, w := range s[:i] {
			if w == 0 {
				return j
			}
		}
	case v != v:
		m, ind := math.NaN(), 0
		for j, w := range s {
			if w == w && (better(w, m) || m != m) {
				m, ind = w, j
			}
		}
		return ind
	}
	return i
}

// HasNaN returns true when the slice s has any values that are NaN and false
// otherwise.
func HasNaN(s []float64) bool {
	// Go's max, which elem.MaxOf follows, is a NaN exactly when s holds one.
	return len(s) > 0 && math.IsNaN(elem.MaxOf(s))
}

// NearestIdx returns the index of the element in s
// whose value is nearest to v. If several such
// elements exist, the lowest index is returned.
// It panics if s is zero length.
func NearestIdx(s []float64, v float64) int {
	if len(s) == 0 {
		panic(zeroLength)
	}
	switch {
	case math.IsNaN(v):
		return 0
	case math.IsInf(v, 1):
		return MaxIdx(s)
	case math.IsInf(v, -1):
		return MinIdx(s)
	}
	var ind int
	dist := math.NaN()
	for i, val := range s {
		newDist := math.Abs(v - val)
		// A NaN distance will not be closer.
		if math.IsNaN(newDist) {
			continue
		}
		if newDist < dist || math.IsNaN(dist) {
			dist = newDist
			ind = i
		}
	}
	return ind
}

// NearestIdxForSpan return the index of a hypothetical vector created
// by Span with length n and bounds l and u whose value is closest
// to v. That is, NearestIdxForSpan(n, l, u, v) is equivalent to
// Nearest(Span(make([]float64, n),l,u),v) without an allocation.
// It panics if n is less than two.
func NearestIdxForSpan(n int, l, u float64, v float64) int {
	if n < 2 {
		panic(shortSpan)
	}
	if math.IsNaN(v) {
		return 0
	}

	// Special cases for Inf and NaN.
	switch {
	case math.IsNaN(l) && !math.IsNaN(u):
		return n - 1
	case math.IsNaN(u):
		return 0
	case math.IsInf(l, 0) && math.IsInf(u, 0):
		if l == u {
			return 0
		}
		if n%2 == 1 {
			if !math.IsInf(v, 0) {
				return n / 2
			}
			if math.Copysign(1, v) == math.Copysign(1, l) {
				return 0
			}
			return n/2 + 1
		}
		if math.Copysign(1, v) == math.Copysign(1, l) {
			return 0
		}
		return n / 2
	case math.IsInf(l, 0):
		if v == l {
			return 0
		}
		return n - 1
	case math.IsInf(u, 0):
		if v == u {
			return n - 1
		}
		return 0
	case math.IsInf(v, -1):
		if l <= u {
			return 0
		}
		return n - 1
	case math.IsInf(v, 1):
		if u <= l {
			return 0
		}
		return n - 1
	}

	// Special cases for v outside (l, u) and (u, l).
	switch {
	case l < u:
		if v <= l {
			return 0
		}
		if v >= u {
			return n - 1
		}
	case l > u:
		if v >= l {
			return 0
		}
		if v <= u {
			return n - 1
		}
	default:
		return 0
	}

	// Can't guarantee anything about exactly halfway between
	// because of floating point weirdness.
	return int((float64(n)-1)/(u-l)*(v-l) + 0.5)
}

// Within returns the first index i where s[i] <= v < s[i+1]. Within panics if:
//   - len(s) < 2
//   - s is not sorted
func Within(s []float64, v float64) int {
	if len(s) < 2 {
		panic(shortSpan)
	}
	if !sort.Float64sAreSorted(s) {
		panic("floats: input slice not sorted")
	}
	if v < s[0] || v >= s[len(s)-1] || math.IsNaN(v) {
		return -1
	}
	for i, f := range s[1:] {
		if v < f {
			return i
		}
	}
	return -1
}

// Count applies the function f to every element of s and returns the number
// of times the function returned true.
func Count(f func(float64) bool, s []float64) int {
	var n int
	for _, val := range s {
		if f(val) {
			n++
		}
	}
	return n
}

// Find applies f to every element of s and returns the indices of the first
// k elements for which the f returns true, or all such elements
// if k < 0.
// Find will reslice inds to have 0 length, and will append
// found indices to inds.
// If k > 0 and there are fewer than k elements in s satisfying f,
// all of the found elements will be returned along with an error.
// At the return of the function, the input inds will be in an undetermined state.
func Find(inds []int, f func(float64) bool, s []float64, k int) ([]int, error) {
	inds = inds[:0]
	if k == 0 {
		return inds, nil
	}
	for i, val := range s {
		if f(val) {
			inds = append(inds, i)
			if len(inds) == k {
				return inds, nil
			}
		}
	}
	if k < 0 {
		return inds, nil
	}
	return inds, errors.New("floats: insufficient elements found")
}

// argsort sorts s and carries inds along: the sort.Interface of Argsort
// and ArgsortStable, gonum's, so that equal values and NaNs end in
// gonum's order.
type argsort struct {
	s    []float64
	inds []int
}

func (a argsort) Len() int           { return len(a.s) }
func (a argsort) Less(i, j int) bool { return a.s[i] < a.s[j] }
func (a argsort) Swap(i, j int) {
	a.s[i], a.s[j] = a.s[j], a.s[i]
	a.inds[i], a.inds[j] = a.inds[j], a.inds[i]
}

// Argsort sorts the elements of dst while tracking their original order.
// At the conclusion of Argsort, dst will contain the original elements of dst
// but sorted in increasing order, and inds will contain the original position
// of the elements in the slice such that dst[i] = origDst[inds[i]].
// It panics if the argument lengths do not match.
func Argsort(dst []float64, inds []int) {
	argsortWith(sort.Sort, dst, inds)
}

// ArgsortStable sorts the elements of dst while tracking their original order and
// keeping the original order of equal elements. At the conclusion of ArgsortStable,
// dst will contain the original elements of dst but sorted in increasing order,
// and inds will contain the original position of the elements in the slice such
// that dst[i] = origDst[inds[i]].
// It panics if the argument lengths do not match.
func ArgsortStable(dst []float64, inds []int) {
	argsortWith(sort.Stable, dst, inds)
}

// argsortWith numbers inds and sorts dst with it by sorter.
func argsortWith(sorter func(sort.Interface), dst []float64, inds []int) {
	if len(dst) != len(inds) {
		panic(badDstLength)
	}
	for i := range dst {
		inds[i] = i
	}
	sorter(argsort{s: dst, inds: inds})
}
