"""Textbook PyTorch KDE-quantile loss, timed as kdequantile's BenchmarkLossStep (docs/benchmarks.md).

Batches: n scores, 10% positives, negatives N(0,1), positives N(1.5,1), alpha = 0.05,
bandwidths by the Silverman-type rule v = pi/(sqrt(3)*1.06*s*n^(-1/5)) (detached, as in Go).
tau: bisection on the smoothed FPR (no grad) to 1e-12 relative, then one Newton step with grad
enabled so that autograd gives the implicit-function gradient at the root. Loss = mean over
positives of sigmoid(v1*(tau - f)); backward by autograd. float64, torch threads = 2.
Prints per n: wall and process (cpu) seconds per forward+backward, medians of 6 repetitions.
"""
import math, sys, time
import torch

torch.set_num_threads(int(sys.argv[1]) if len(sys.argv) > 1 else 2)
alpha = 0.05

def batch(n, gen):
    y = (torch.rand(n, generator=gen, dtype=torch.float64) < 0.1).to(torch.float64)
    y[0], y[1] = 1.0, 0.0
    f = torch.randn(n, generator=gen, dtype=torch.float64) + 1.5 * y
    return f, y

def rule(x):
    n = x.numel()
    return math.pi / (math.sqrt(3) * 1.06 * x.std().item() * n ** -0.2)

def kde_loss(f, y):
    neg, pos = f[y == 0], f[y == 1]
    v0, v1 = rule(neg.detach()), rule(pos.detach())
    with torch.no_grad():
        lo = neg.min().item() - 60 / v0
        hi = neg.max().item() + 60 / v0
        n0 = neg.numel()
        while hi - lo > 1e-12 * max(1.0, abs(lo)):
            mid = 0.5 * (lo + hi)
            fpr = torch.sigmoid(v0 * (neg - mid)).sum().item() / n0
            if fpr > alpha:
                lo = mid
            else:
                hi = mid
        tau0 = 0.5 * (lo + hi)
    s = torch.sigmoid(v0 * (tau0 - neg))
    phi = s.sum() - n0 * (1 - alpha)
    dphi = (v0 * s * (1 - s)).sum()
    tau = tau0 - phi / dphi.detach()
    return torch.sigmoid(v1 * (tau - pos)).mean()

gen = torch.Generator().manual_seed(1)
for n in [int(a) for a in (sys.argv[2:] or ["128", "1024", "16384", "262144", "1048576"])]:
    f0, y = batch(n, gen)
    walls, cpus = [], []
    for rep in range(6):
        iters, w0, c0 = 0, time.perf_counter(), time.process_time()
        while True:
            f = f0.clone().requires_grad_(True)
            loss = kde_loss(f, y)
            loss.backward()
            iters += 1
            if time.perf_counter() - w0 > 1.0:
                break
        walls.append((time.perf_counter() - w0) / iters)
        cpus.append((time.process_time() - c0) / iters)
    walls.sort(); cpus.sort()
    print(f"torch n={n} wall {1e6*(walls[2]+walls[3])/2:.1f} us cpu {1e6*(cpus[2]+cpus[3])/2:.1f} us  (min {1e6*walls[0]:.1f}/{1e6*cpus[0]:.1f})", flush=True)
