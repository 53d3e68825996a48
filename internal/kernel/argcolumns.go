package kernel

// ArgColumns runs down lines lines of len(best) columns, line i at
// x[i*ld:], and keeps in best and at each column's extreme so far and its
// line, first + i: a column takes line i's value where it is greater
// (least: less) than best's, or is a NaN where best's is not, so that the
// first of equal values stays and a NaN, once in best, stays. Zeros of
// either sign are equal here. at's integers have T's size (int32 for
// float32, int64 for float64). It reports false, having done nothing,
// where no kernel runs for T, the columns and the implementation in
// effect: the caller then runs its own loop.
func ArgColumns[T Number, I int32 | int64](best []T, at []I, x []T, ld, lines, first int, least bool) bool {
	if lines == 0 {
		return true
	}
	return argColumnsKernel(best, at, x, ld, lines, first, least)
}
