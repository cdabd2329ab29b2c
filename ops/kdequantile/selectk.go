package kdequantile

import (
	"math"
	"slices"
)

// selectK reorders a so that a[k] is the value it would have if a were sorted, with no larger
// value before it and no smaller one after it, in O(len(a)) expected time, without sorting.
// It is the SELECT algorithm of Floyd and Rivest (Comm. ACM 18(3), 1975, Algorithm 489):
// partition around a pivot chosen by recursively selecting within a small sample, so that the
// element sought is almost surely between two close pivots. As in introselect, a range that
// still is not narrowed after many rounds is sorted, which bounds the worst case by
// O(n log n). a must not contain NaN.
func selectK(a []float64, k int) {
	left, right := 0, len(a)-1
	for rounds := 0; right > left; rounds++ {
		if rounds > 64 {
			slices.Sort(a[left : right+1])
			return
		}
		if right-left > 600 {
			// Select within a sample of size s around the expected position of the k-th
			// value, so that the partition below brackets it tightly.
			n := float64(right - left + 1)
			i := float64(k - left + 1)
			z := math.Log(n)
			s := 0.5 * math.Exp(2*z/3)
			sd := 0.5 * math.Sqrt(z*s*(n-s)/n)
			if i < n/2 {
				sd = -sd
			}
			newLeft := max(left, int(float64(k)-i*s/n+sd))
			newRight := min(right, int(float64(k)+(n-i)*s/n+sd))
			selectK(a[newLeft:newRight+1], k-newLeft)
		}
		// Partition a[left..right] around t = a[k].
		t := a[k]
		i, j := left, right
		a[left], a[k] = a[k], a[left]
		if a[right] > t {
			a[left], a[right] = a[right], a[left]
		}
		for i < j {
			a[i], a[j] = a[j], a[i]
			i++
			j--
			for a[i] < t {
				i++
			}
			for a[j] > t {
				j--
			}
		}
		if a[left] == t {
			a[left], a[j] = a[j], a[left]
		} else {
			j++
			a[j], a[right] = a[right], a[j]
		}
		if j <= k {
			left = j + 1
		}
		if k <= j {
			right = j - 1
		}
	}
}
