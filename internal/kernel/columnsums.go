package kernel

// ColumnSums adds rows rows of x, row r at x[r*ldx:], into the Lanes
// accumulator rows of acc, row p at acc[p*lda:], row r into accumulator
// row (lane + r) mod Lanes, in row order for each: the canonical order of
// a sum down columns, row i of the values into accumulator i mod Lanes.
// It adds the first columns of each row, a whole number of the kernel's
// registers of at most w, and returns how many: 0 where no kernel runs
// for T and the implementation in effect. The caller adds the rest. Each
// accumulator row is loaded and stored once for all its rows, a strip of
// registers at a time, where a vertical Add of each row into its
// accumulator row loads and stores it for every row.
func ColumnSums[T Number](acc []T, lda int, x []T, ldx, rows, w, lane int) int {
	if rows == 0 || w == 0 {
		return 0
	}
	return columnSumsKernel(acc, lda, x, ldx, rows, w, lane, nil)
}

// ColumnSqDevs is ColumnSums adding the squared deviations (x - m)*(x -
// m) of the values from their column's m = mean[c], the difference and
// the square each rounded to T: the bits of SqDiffAdd's kernels into the
// accumulator rows, a variance's second pass down columns.
func ColumnSqDevs[T Number](acc []T, lda int, x []T, ldx, rows, w, lane int, mean []T) int {
	if rows == 0 || w == 0 {
		return 0
	}
	return columnSumsKernel(acc, lda, x, ldx, rows, w, lane, mean[:w])
}
