package broadcast

import (
	"errors"
	"math/bits"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// huge squared overflows int on every word size (1<<40 on 64-bit platforms).
const huge = 1 << (bits.UintSize * 5 / 8)

// S is shorthand for a Shape literal.
func S(dims ...int) Shape { return append(Shape{}, dims...) }

// B is shorthand for a BatchShape literal.
func B(batch int, dims ...int) BatchShape { return BatchShape{Dims: S(dims...), Batch: batch} }

// requireErr checks that err wraps every sentinel in kinds, that its message
// mentions every string in mentions, and that it is never a bare message.
func requireErr(t *testing.T, err error, kinds []error, mentions ...string) {
	t.Helper()
	require.Error(t, err)
	require.NotEmpty(t, kinds, "test case must name the expected sentinels")
	for _, k := range kinds {
		require.ErrorIs(t, err, k)
	}
	msg := err.Error()
	require.True(t, strings.HasPrefix(msg, "broadcast: "), "message %q lacks the package prefix", msg)
	for _, m := range mentions {
		require.Contains(t, msg, m)
	}
	require.NotContains(t, msg, "inconsistent")
}

// requireCaseErr checks a table case's error: requireErr with mentions,
// nothing but the sentinels in kinds, and the exact message msg if given.
func requireCaseErr(t *testing.T, err error, kinds []error, msg string, mentions ...string) {
	t.Helper()
	requireErr(t, err, kinds, mentions...)
	requireOnly(t, err, kinds...)
	if msg != "" {
		require.EqualError(t, err, msg)
	}
}

// allSentinels lists every sentinel, to check that errors wrap only the
// expected ones.
var allSentinels = []error{
	ErrIncompatible, ErrRank, ErrAxis, ErrInvalidShape, ErrNegativeDim,
	ErrOverflow, ErrDataLength, ErrInPlace, ErrBatch, ErrOverlap, ErrOp, ErrPlan,
}

// requireOnly checks that err wraps exactly the sentinels in kinds.
func requireOnly(t *testing.T, err error, kinds ...error) {
	t.Helper()
	for _, s := range allSentinels {
		want := false
		for _, k := range kinds {
			if k == s {
				want = true
			}
		}
		require.Equal(t, want, errors.Is(err, s), "errors.Is(%q, %v)", err, s)
	}
}

// bothShapes returns the strings of a and b when an error of these kinds
// must name both shapes (incompatibilities, unlike a single invalid shape).
func bothShapes(kinds []error, a, b Shape) []string {
	for _, k := range kinds {
		if k == ErrInvalidShape || k == ErrOverflow {
			return nil
		}
	}
	return []string{a.String(), b.String()}
}
