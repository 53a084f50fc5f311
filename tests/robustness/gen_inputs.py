#!/usr/bin/env python3
"""Inputs for the issue 31 robustness test (robustness_test.sh): deep JSON nesting, wide layouts
for invertAndCompose, batch sessions with many or huge dim names, and JSON files made of tiny
values. Everything is written to standard output; Python 3 stdlib only.

usage:
  gen_inputs.py deep-array DEPTH                 [[[...]]] nested DEPTH levels
  gen_inputs.py deep-object DEPTH                {"a":{"a":...0...}} nested DEPTH levels
  gen_inputs.py deep-config DEPTH                a gemm --config object holding a deep list
  gen_inputs.py deep-model DEPTH                 a bank model object holding a deep list
  gen_inputs.py deep-batch CASE DEPTH            one request nested DEPTH levels (CASE below),
                                                 then the valid request 'after-CASE'
  gen_inputs.py wide-layout NDIMS SEED           a layout of NDIMS in-dims x 63 bases, one
                                                 out-dim of size 2^63
  gen_inputs.py wide-batch NDIMS                 invertAndCompose of two such layouts, then
                                                 the valid request 'after-wide'
  gen_inputs.py big-names COUNT BYTES            COUNT requests, each with its own dim name of
                                                 BYTES bytes (result of each: 2)
  gen_inputs.py many-names REQUESTS NAMES LEN    REQUESTS requests of NAMES distinct dim names
                                                 of about LEN bytes each (result of each: 0)
  gen_inputs.py check-names COUNT RESULT         reads responses on stdin: exactly COUNT lines,
                                                 ids 0..COUNT-1 in order, each {"result":RESULT}
                                                 (or an error naming a limit that is not
                                                 "out of memory"); prints a summary
  gen_inputs.py check-batch FILE SPEC...        checks the responses in FILE: one line per SPEC,
                                                 in order; each SPEC is a JSON object with "id"
                                                 (the id the line must carry), and "error" (a
                                                 regex the error must match, case-insensitive)
                                                 or "result" (the exact result); "forbid": a
                                                 regex the error must not match; "resultOk":
                                                 true accepts any result instead of the error
  gen_inputs.py edge-integers SEED COUNT         COUNT x 3 requests per encoding template
                                                 (verify, toLinearLayout, layoutStr) whose
                                                 integers sit at the edges of 64 bits
  gen_inputs.py amp-lists BYTES                  layout JSON of exactly BYTES bytes whose
                                                 bases are a huge list of [0]
  gen_inputs.py amp-objects BYTES                the same with a huge list of {}
  gen_inputs.py amp-config BYTES                 a gemm --config object of exactly BYTES bytes
                                                 whose sg_layout is a huge list of [0]
  gen_inputs.py amp-batch BYTES                  a batch line (newline included) of exactly
                                                 BYTES bytes of tiny values, then 'after-amp'
"""

import json
import os
import random
import re
import sys

AFTER = '{"id":"%s","op":"identity1D","args":{"size":4,"inDim":"lane","outDim":"dim0"}}'

BLOCKED = ('#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], '
           'warpsPerCTA = [4, 1], order = [1, 0]}>')
DPAS_A = ('#ttg.dot_op<{opIdx = 0, parent = #ttig.dpas<{repeatCount = 8, systolicDepth = 8, '
          'executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [8, 4], '
          'repCluster = [4, 2]}>, kWidth = 1}>')
XEGPU_C = '#xegpu.layout<lane_layout = [1, 16], lane_data = [1, 1]>'


def out(text):
    sys.stdout.write(text)


def deep_array(depth):
    return '[' * depth + ']' * depth


def deep_object(depth):
    return '{"a":' * depth + '0' + '}' * depth


def deep_request(case, depth):
    """One request line whose id or one argument is nested `depth` levels."""
    arr = deep_array(depth)
    obj = deep_object(depth)
    rid = json.dumps('deep-' + case)
    if case == 'id':
        return '{"id":%s,"op":"identity1D","args":{"size":4,"inDim":"lane","outDim":"dim0"}}' % arr
    if case == 'banks.analyze-access':
        return ('{"id":%s,"op":"banks.analyze","args":{"access":%s,"shape":[64,64],'
                '"elemBits":16,"instruction":"nvidia.ld.b128"}}' % (rid, arr))
    if case == 'banks.analyze-instruction':
        return ('{"id":%s,"op":"banks.analyze","args":{"access":%s,"shape":[64,64],'
                '"elemBits":16,"instruction":%s}}' % (rid, json.dumps(BLOCKED), obj))
    if case == 'banks.swizzle':
        return ('{"id":%s,"op":"banks.swizzle","args":{"store":%s,"load":%s,"shape":[64,64],'
                '"elemBits":16,"target":"nvidia"}}' % (rid, obj, json.dumps(BLOCKED)))
    if case == 'blockLoad.plan':
        return ('{"id":%s,"op":"blockLoad.plan","args":{"encoding":%s,"shape":%s,'
                '"elemBits":16}}' % (rid, json.dumps(DPAS_A), arr))
    if case == 'convert.plan':
        return ('{"id":%s,"op":"convert.plan","args":{"src":%s,"dst":%s,"shape":[32,32],'
                '"elemBits":16}}' % (rid, obj, json.dumps(BLOCKED)))
    if case == 'xegpu.propagate':
        return ('{"id":%s,"op":"xegpu.propagate","args":{"op":"dpas","result":%s,"shapeA":%s,'
                '"shapeB":[32,16],"elementType":"bf16","target":"pvc"}}'
                % (rid, json.dumps(XEGPU_C), arr))
    if case == 'inputs':
        return '{"id":%s,"op":"invert","inputs":[%s]}' % (rid, obj)
    raise SystemExit('unknown deep-batch case ' + case)


def wide_layout(ndims, seed):
    """NDIMS in-dims of 63 bases each, one out-dim of 2^63: surjective (rank 63) by construction,
    every basis a 63-bit value (about 20 digits, so 2,000 dims are about 2.8 MB)."""
    rng = random.Random(seed)
    dims = []
    for d in range(ndims):
        bases = []
        for i in range(63):
            if d == 0:
                v = 1 << i  # in-dim 0 alone spans the out-dim
            else:
                v = rng.getrandbits(63)
            bases.append('[%d]' % v)
        dims.append('{"name":"i%d","bases":[%s]}' % (d, ','.join(bases)))
    return ('{"inDims":[%s],"outDims":[{"name":"o","size":9223372036854775808}]}'
            % ','.join(dims))


def exact_fill(head, unit, tail, total):
    """head + unit repeated (comma separated) + tail, padded with spaces to exactly `total`."""
    room = total - len(head) - len(tail)
    n = max(1, (room + 1) // (len(unit) + 1))
    while n * (len(unit) + 1) - 1 > room:
        n -= 1
    body = ','.join([unit] * n)
    text = head + body + tail
    return text + ' ' * (total - len(text)) if len(text) < total else text


def write_big(text_parts):
    for part in text_parts:
        sys.stdout.write(part)


def check_batch(path, specs):
    """Prints one line per problem; returns 1 when there is any."""
    with open(path, 'rb') as f:
        lines = f.read().split(b'\n')
    if lines and lines[-1] == b'':
        lines.pop()
    problems = []
    if len(lines) != len(specs):
        problems.append('%d response lines for %d requests' % (len(lines), len(specs)))
    for i, (raw, spec) in enumerate(zip(lines, specs)):
        where = 'response %d (request id %s)' % (i + 1, json.dumps(spec['id']))
        try:
            resp = json.loads(raw)
        except (ValueError, RecursionError) as e:
            problems.append('%s: not readable JSON (%s): %r' % (where, type(e).__name__, raw[:200]))
            continue
        if not isinstance(resp, dict) or resp.get('id', 'MISSING') != spec['id']:
            got = resp.get('id', 'MISSING') if isinstance(resp, dict) else resp
            problems.append('%s: carries id %s' % (where, json.dumps(got)[:200]))
            continue
        if 'result' in spec:
            if resp.get('result', 'MISSING') != spec['result']:
                problems.append('%s: want result %s, got %s'
                                % (where, json.dumps(spec['result']), raw[:300].decode(errors='replace')))
            continue
        if 'result' in resp and spec.get('resultOk'):
            continue
        err = resp.get('error')
        if not isinstance(err, str):
            problems.append('%s: want an error matching /%s/, got %s'
                            % (where, spec['error'], raw[:300].decode(errors='replace')))
            continue
        if not re.search(spec['error'], err, re.I):
            problems.append('%s: error does not match /%s/: %s' % (where, spec['error'], err[:400]))
        elif spec.get('forbid') and re.search(spec['forbid'], err, re.I):
            problems.append('%s: error matches the forbidden /%s/: %s'
                            % (where, spec['forbid'], err[:400]))
    for p in problems:
        print(p)
    return 1 if problems else 0


# Attribute integers at the edges of 64 bits (issue 31: "check every product of attribute
# integers for overflow"): each template's $ takes one of them, and the shape too.
EDGE_VALUES = ["0", "1", "2", "3", "4294967296", "2147483648", "4611686018427387904",
               "9223372036854775807", "9223372036854775808", "18446744073709551615",
               "18446744073709551616", "-1", "-9223372036854775808",
               "100000000000000000000000000000"]
EDGE_TEMPLATES = [
    "#ttg.partitioned_shared<{numPartitions = $, numGroups = $, partitionDim = 0, "
    "partitionLayout = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>}>",
    "#ttg.blocked<{sizePerThread = [$, $], threadsPerWarp = [$, $], warpsPerCTA = [$, $], "
    "order = [1, 0]}>",
    "#ttg.swizzled_shared<{vec = $, perPhase = $, maxPhase = $, order = [1, 0]}>",
    "#ttg.padded_shared<[$:+$] {order = [1, 0], shape = [$, $]}>",
    "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [$, $], instrShape = [16, 8]}>",
    "#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [$, $], instrShape = [16, $, 16]}>",
    "#ttg.amd_mfma<{version = 3, warpsPerCTA = [$, $], instrShape = [$, $], isTransposed = true}>",
    "#ttg.amd_wmma<{version = 2, isTranspose = false, warpsPerCTA = [$, $]}>",
    "#xegpu.layout<sg_layout = [$, $], sg_data = [$, $], lane_layout = [$, $], lane_data = [$, $]>",
    "#xegpu.layout<inst_data = [$, $], lane_layout = [$, $], lane_data = [$, $]>",
    "#ttg.dot_op<{opIdx = 0, parent = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, "
    "warpsPerCTA = [$, $], instrShape = [16, 8]}>, kWidth = $}>",
    "#ttg.dot_op<{opIdx = 1, parent = #ttg.amd_mfma<{version = 3, warpsPerCTA = [$, $], "
    "instrShape = [32, 32], isTransposed = false}>, kWidth = $}>",
    "#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = $}>",
    "#ttg.slice<{dim = $, parent = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], "
    "warpsPerCTA = [$, 1], order = [1, 0]}>}>",
    "#triton_intel_gpu.dpas<{repeatCount = $, systolicDepth = $, executionSize = $, opsPerChan = $, "
    "threadsPerWarp = $, warpsPerCTA = [$, $], repCluster = [$, $]}>",
    "#ttg.linear<{register = [[0, $]], lane = [[$, 0]], warp = [], block = []}>",
    "#xegpu.slice<#xegpu.layout<sg_layout = [$, $], sg_data = [$, $]>, dims = [$]>",
]


def edge_integers(seed, per_template):
    """verify, toLinearLayout and layoutStr of every template, each $ (and the shape) drawn from
    EDGE_VALUES (half the time from its first 8, the values encodings accept)."""
    rnd = random.Random(seed)
    pick = lambda: rnd.choice(EDGE_VALUES[:8] if rnd.random() < 0.5 else EDGE_VALUES)
    lines, n = [], 0
    for template in EDGE_TEMPLATES:
        for _ in range(per_template):
            text = template
            while '$' in text:
                text = text.replace('$', pick(), 1)
            shape = rnd.choice([[64, 64], [16, 16], [int(rnd.choice(EDGE_VALUES[1:10])), 2],
                                [2, int(rnd.choice(EDGE_VALUES[1:10]))]])
            for op in ('verify', 'toLinearLayout', 'layoutStr'):
                lines.append(json.dumps({"id": n, "op": op,
                                         "args": {"encoding": text, "shape": shape}}))
                n += 1
    return '\n'.join(lines) + '\n'


def main(argv):
    if len(argv) < 2:
        raise SystemExit(__doc__)
    cmd, args = argv[1], argv[2:]
    if cmd == 'deep-array':
        out(deep_array(int(args[0])))
    elif cmd == 'deep-object':
        out(deep_object(int(args[0])))
    elif cmd == 'deep-config':
        out('{"m":64,"n":64,"k":64,"sg_layout":%s}\n' % deep_array(int(args[0])))
    elif cmd == 'deep-model':
        out('{"name":"deep","banks":32,"bankBytes":4,"phases":%s}\n' % deep_array(int(args[0])))
    elif cmd == 'deep-batch':
        out(deep_request(args[0], int(args[1])) + '\n')
        out(AFTER % ('after-' + args[0]) + '\n')
    elif cmd == 'wide-layout':
        out(wide_layout(int(args[0]), int(args[1])) + '\n')
    elif cmd == 'wide-batch':
        n = int(args[0])
        out('{"id":"wide-%d","op":"invertAndCompose","inputs":[%s,%s]}\n'
            % (n, wide_layout(n, 1), wide_layout(n, 2)))
        out(AFTER % 'after-wide' + '\n')
    elif cmd == 'big-names':
        count, size = int(args[0]), int(args[1])
        filler = 'x' * size
        for i in range(count):
            prefix = 'n%d_' % i
            name = prefix + filler[len(prefix):]
            sys.stdout.write('{"id":%d,"op":"getTotalInDimSize","inputs":[{"inDims":[{"name":"'
                             % i)
            sys.stdout.write(name)
            sys.stdout.write('","bases":[[1]]}],"outDims":[{"name":"o","size":2}]}]}\n')
    elif cmd == 'many-names':
        requests, names, length = int(args[0]), int(args[1]), int(args[2])
        for r in range(requests):
            pad = 'p' * max(0, length - 16)
            dims = ','.join('{"name":"%s_%d_%d","bases":[]}' % (pad, r, j) for j in range(names))
            sys.stdout.write('{"id":%d,"op":"getTotalInDimSizeLog2","inputs":[{"inDims":[%s],'
                             '"outDims":[{"name":"o","size":1}]}]}\n' % (r, dims))
    elif cmd == 'check-names':
        count, want = int(args[0]), json.loads(args[1])
        lines = sys.stdin.buffer.read().split(b'\n')
        if lines and lines[-1] == b'':
            lines.pop()
        problems = []
        if len(lines) != count:
            problems.append('%d response lines for %d requests' % (len(lines), count))
        results = errors = 0
        for i, raw in enumerate(lines[:count]):
            try:
                resp = json.loads(raw)
            except ValueError:
                problems.append('line %d is not JSON: %r' % (i, raw[:200]))
                break
            if resp.get('id') != i:
                problems.append('line %d has id %r, want %d' % (i, resp.get('id'), i))
                break
            if 'result' in resp:
                if resp['result'] != want:
                    problems.append('line %d: result %r, want %r' % (i, resp['result'], want))
                    break
                results += 1
            else:
                err = str(resp.get('error'))
                if 'out of memory' in err or 'limit' not in err.lower():
                    problems.append('line %d: error %r (not an error naming a limit)'
                                    % (i, err[:300]))
                    break
                errors += 1
        print('%d lines, %d results, %d limit errors' % (len(lines), results, errors))
        for p in problems:
            print('  ' + p)
        return 1 if problems else 0
    elif cmd == 'check-batch':
        return check_batch(args[0], [json.loads(a) for a in args[1:]])
    elif cmd in ('amp-lists', 'amp-objects'):
        total = int(args[0])
        unit = '[0]' if cmd == 'amp-lists' else '{}'
        out(exact_fill('{"inDims":[{"name":"x","bases":[', unit,
                       ']}],"outDims":[{"name":"y","size":2}]}', total))
    elif cmd == 'edge-integers':
        out(edge_integers(int(args[0]), int(args[1])))
    elif cmd == 'amp-config':
        out(exact_fill('{"m":64,"n":64,"k":64,"sg_layout":[', '[0]', ']}', int(args[0])))
    elif cmd == 'amp-batch':
        total = int(args[0])
        out(exact_fill('{"id":"amp","op":"isInvertible","inputs":[{"inDims":[{"name":"x",'
                       '"bases":[', '[0]', ']}],"outDims":[{"name":"y","size":2}]}]}',
                       total - 1) + '\n')
        out(AFTER % 'after-amp' + '\n')
    else:
        raise SystemExit('unknown command ' + cmd + '\n' + __doc__)
    return 0


if __name__ == '__main__':
    try:
        sys.exit(main(sys.argv))
    except BrokenPipeError:
        # The reader (layoutctl) ended early; the driver reports what it answered.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(0)
