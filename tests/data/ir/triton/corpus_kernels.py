# Ordinary Triton kernels compiled by make_corpus.py into the TTGIR/PTX corpus of this folder.
#
# The saved TTGIR `loc(...)` and PTX `.loc` directives point at lines of THIS file
# (tests/data/ir/triton/corpus_kernels.py), so editing it shifts the line numbers the corpus
# records: regenerate the corpus (see make_corpus.py) after any change here.
import triton
import triton.language as tl


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K,
                  stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                  BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                  GROUP_M: tl.constexpr):
    # C[M, N] = A[M, K] @ B[K, N], grouped tile order for L2 reuse.
    pid = tl.program_id(0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_pid_in_group = GROUP_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
    pid_m = first_pid_m + (pid % num_pid_in_group) % group_size_m
    pid_n = (pid % num_pid_in_group) // group_size_m
    offs_am = (pid_m * BLOCK_M + tl.arange(0, BLOCK_M)) % M
    offs_bn = (pid_n * BLOCK_N + tl.arange(0, BLOCK_N)) % N
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_K, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_K, other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk
    c = acc.to(c_ptr.dtype.element_ty)
    offs_cm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_cn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    c_ptrs = c_ptr + stride_cm * offs_cm[:, None] + stride_cn * offs_cn[None, :]
    c_mask = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)
    tl.store(c_ptrs, c, mask=c_mask)


@triton.jit
def matmul_bt_kernel(a_ptr, b_ptr, c_ptr, M, N, K,
                     stride_am, stride_ak, stride_bn, stride_bk, stride_cm, stride_cn,
                     BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    # C[M, N] = A[M, K] @ B[N, K]^T: B is stored K-contiguous and transposed with tl.trans.
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_am = (pid_m * BLOCK_M + tl.arange(0, BLOCK_M)) % M
    offs_bn = (pid_n * BLOCK_N + tl.arange(0, BLOCK_N)) % N
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak
    b_ptrs = b_ptr + offs_bn[:, None] * stride_bn + offs_k[None, :] * stride_bk
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_K, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[None, :] < K - k * BLOCK_K, other=0.0)
        acc = tl.dot(a, tl.trans(b), acc)
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk
    c = acc.to(c_ptr.dtype.element_ty)
    offs_cm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_cn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    c_ptrs = c_ptr + stride_cm * offs_cm[:, None] + stride_cn * offs_cn[None, :]
    c_mask = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)
    tl.store(c_ptrs, c, mask=c_mask)


@triton.jit
def matmul_tma_kernel(a_ptr, b_ptr, c_ptr, M, N, K,
                      BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    # Row-major A[M, K], B[K, N], C[M, N] read and written through device-side tensor descriptors.
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[K, 1], block_shape=[BLOCK_M, BLOCK_K])
    b_desc = tl.make_tensor_descriptor(b_ptr, shape=[K, N], strides=[N, 1], block_shape=[BLOCK_K, BLOCK_N])
    c_desc = tl.make_tensor_descriptor(c_ptr, shape=[M, N], strides=[N, 1], block_shape=[BLOCK_M, BLOCK_N])
    off_m = tl.program_id(0) * BLOCK_M
    off_n = tl.program_id(1) * BLOCK_N
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = a_desc.load([off_m, k * BLOCK_K])
        b = b_desc.load([k * BLOCK_K, off_n])
        acc = tl.dot(a, b, acc)
    c_desc.store([off_m, off_n], acc.to(c_ptr.dtype.element_ty))


@triton.jit
def matmul_persistent_kernel(a_ptr, b_ptr, c_ptr, M, N, K,
                             stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                             BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                             GROUP_M: tl.constexpr, NUM_SMS: tl.constexpr):
    # One program per SM walks the output tiles with a stride of NUM_SMS.
    start_pid = tl.program_id(0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    k_tiles = tl.cdiv(K, BLOCK_K)
    num_tiles = num_pid_m * num_pid_n
    num_pid_in_group = GROUP_M * num_pid_n
    for tile_id in tl.range(start_pid, num_tiles, NUM_SMS):
        group_id = tile_id // num_pid_in_group
        first_pid_m = group_id * GROUP_M
        group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
        pid_m = first_pid_m + (tile_id % group_size_m)
        pid_n = (tile_id % num_pid_in_group) // group_size_m
        offs_am = (pid_m * BLOCK_M + tl.arange(0, BLOCK_M)) % M
        offs_bn = (pid_n * BLOCK_N + tl.arange(0, BLOCK_N)) % N
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        for ki in range(k_tiles):
            offs_k = ki * BLOCK_K + tl.arange(0, BLOCK_K)
            a = tl.load(a_ptr + offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak,
                        mask=offs_k[None, :] < K, other=0.0)
            b = tl.load(b_ptr + offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn,
                        mask=offs_k[:, None] < K, other=0.0)
            acc = tl.dot(a, b, acc)
        offs_cm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
        offs_cn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
        c_mask = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)
        tl.store(c_ptr + offs_cm[:, None] * stride_cm + offs_cn[None, :] * stride_cn,
                 acc.to(c_ptr.dtype.element_ty), mask=c_mask)


@triton.jit
def attn_fwd_kernel(q_ptr, k_ptr, v_ptr, o_ptr, sm_scale, N_CTX,
                    stride_h, stride_qm, stride_kn, stride_vn, stride_om,
                    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, HEAD_DIM: tl.constexpr):
    # Flash-attention forward, non-causal, one (query block, head) per program; N_CTX % BLOCK_N == 0.
    start_m = tl.program_id(0)
    off_h = tl.program_id(1).to(tl.int64) * stride_h
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)
    q = tl.load(q_ptr + off_h + offs_m[:, None] * stride_qm + offs_d[None, :])
    k_ptrs = k_ptr + off_h + offs_n[:, None] * stride_kn + offs_d[None, :]
    v_ptrs = v_ptr + off_h + offs_n[:, None] * stride_vn + offs_d[None, :]
    m_i = tl.full([BLOCK_M], float("-inf"), dtype=tl.float32)
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    qk_scale = sm_scale * 1.44269504
    for start_n in range(0, N_CTX, BLOCK_N):
        k = tl.load(k_ptrs + start_n * stride_kn)
        qk = tl.dot(q, tl.trans(k)) * qk_scale
        m_ij = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.math.exp2(qk - m_ij[:, None])
        alpha = tl.math.exp2(m_i - m_ij)
        l_i = l_i * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None]
        v = tl.load(v_ptrs + start_n * stride_vn)
        acc = tl.dot(p.to(v.dtype), v, acc)
        m_i = m_ij
    acc = acc / l_i[:, None]
    tl.store(o_ptr + off_h + offs_m[:, None] * stride_om + offs_d[None, :], acc.to(o_ptr.dtype.element_ty))


@triton.jit
def softmax_kernel(out_ptr, in_ptr, in_row_stride, out_row_stride, n_cols, BLOCK_SIZE: tl.constexpr):
    # Row-wise softmax, one row per program.
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK_SIZE)
    mask = offs < n_cols
    x = tl.load(in_ptr + row * in_row_stride + offs, mask=mask, other=-float("inf"))
    x = x - tl.max(x, axis=0)
    num = tl.exp(x)
    den = tl.sum(num, axis=0)
    tl.store(out_ptr + row * out_row_stride + offs, num / den, mask=mask)


@triton.jit
def layernorm_kernel(x_ptr, y_ptr, w_ptr, b_ptr, mean_ptr, rstd_ptr, stride, M, N, eps,
                     BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    # LayerNorm forward over BLOCK_M rows at once; a row fits in BLOCK_N.
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.arange(0, BLOCK_N)
    mask = (rows[:, None] < M) & (cols[None, :] < N)
    x = tl.load(x_ptr + rows[:, None] * stride + cols[None, :], mask=mask, other=0.0).to(tl.float32)
    mean = tl.sum(x, axis=1) / N
    xc = tl.where(mask, x - mean[:, None], 0.0)
    var = tl.sum(xc * xc, axis=1) / N
    rstd = 1 / tl.sqrt(var + eps)
    w = tl.load(w_ptr + cols, mask=cols < N, other=0.0)
    b = tl.load(b_ptr + cols, mask=cols < N, other=0.0)
    y = xc * rstd[:, None] * w[None, :] + b[None, :]
    tl.store(y_ptr + rows[:, None] * stride + cols[None, :], y.to(y_ptr.dtype.element_ty), mask=mask)
    tl.store(mean_ptr + rows, mean, mask=rows < M)
    tl.store(rstd_ptr + rows, rstd, mask=rows < M)


@triton.jit
def transpose_kernel(x_ptr, y_ptr, M, N, stride_xm, stride_yn,
                     BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    # Y[N, M] = X[M, N]^T, both row-major, one tile per program through tl.trans.
    offs_m = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    x = tl.load(x_ptr + offs_m[:, None] * stride_xm + offs_n[None, :],
                mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))
    y = tl.trans(x)
    tl.store(y_ptr + offs_n[:, None] * stride_yn + offs_m[None, :], y,
             mask=(offs_n[:, None] < N) & (offs_m[None, :] < M))


@triton.jit
def reduce_kernel(x_ptr, row_sum_ptr, col_max_ptr, M, N, stride_xm,
                  BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    # Row sums (axis 1) and per-program column maxima (axis 0) of a [BLOCK_M, BLOCK_N] tile.
    pid = tl.program_id(0)
    rows = pid * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.arange(0, BLOCK_N)
    mask = (rows[:, None] < M) & (cols[None, :] < N)
    x = tl.load(x_ptr + rows[:, None] * stride_xm + cols[None, :], mask=mask, other=0.0)
    row_sum = tl.sum(x, axis=1)
    tl.store(row_sum_ptr + rows, row_sum, mask=rows < M)
    col_max = tl.max(tl.where(mask, x, -float("inf")), axis=0)
    tl.store(col_max_ptr + pid * N + cols, col_max, mask=cols < N)


@triton.jit
def cumsum_kernel(x_ptr, row_scan_ptr, col_scan_ptr, M, N, stride,
                  BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    # Inclusive prefix sums of one tile along rows (axis 1) and along columns (axis 0).
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.arange(0, BLOCK_N)
    mask = (rows[:, None] < M) & (cols[None, :] < N)
    offs = rows[:, None] * stride + cols[None, :]
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    tl.store(row_scan_ptr + offs, tl.cumsum(x, axis=1), mask=mask)
    tl.store(col_scan_ptr + offs, tl.cumsum(x, axis=0), mask=mask)


@triton.jit
def complex_square_kernel(z_ptr, out_ptr, re_ptr, im_ptr, n, BLOCK: tl.constexpr):
    # z holds n interleaved complex numbers (re, im); writes z*z interleaved and its planar parts.
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    flat = tl.program_id(0) * (2 * BLOCK) + tl.arange(0, 2 * BLOCK)
    z = tl.load(z_ptr + flat, mask=flat < 2 * n, other=0.0)
    re, im = tl.split(tl.reshape(z, [BLOCK, 2]))
    sq_re = re * re - im * im
    sq_im = 2.0 * re * im
    out = tl.reshape(tl.join(sq_re, sq_im), [2 * BLOCK])
    tl.store(out_ptr + flat, out, mask=flat < 2 * n)
    tl.store(re_ptr + offs, sq_re, mask=offs < n)
    tl.store(im_ptr + offs, sq_im, mask=offs < n)
