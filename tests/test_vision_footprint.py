"""Templates drawn per patch (vision.footprint): the model agrees with the fixed blurred templates
where the blur is round, its rectangle chances with sampling, and a small marker seen obliquely
(rendered, blurred, pixelated and rectified back, seeded) fits its own templates better than
the fixed ones, read as itself with a margin."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision import footprint as F
from vision.refine import BLUR_CELLS, blurred_templates
from vision.footprint import _cells
from vision.synth import cap_texture

DICT = "DICT_4X4_50"


def _draw(per_cell: np.ndarray, base: np.ndarray) -> np.ndarray:
    """Every marker's 36 cells (4M, 36), centred and of unit length, from cell images (144, 36)."""
    V, _, _ = F._code_cells(DICT)
    t = (V @ per_cell.T + base[None]).reshape(len(V), 6, 2, 6, 2).mean(axis=(2, 4)).reshape(len(V), 36)
    t -= t.mean(axis=1, keepdims=True)
    return t / np.linalg.norm(t, axis=1, keepdims=True)


@pytest.mark.parametrize("k", range(len(BLUR_CELLS)))
def test_a_round_blur_draws_the_fixed_blurred_templates(k):
    sigma = BLUR_CELLS[k]
    per_cell, base = F.cell_images(np.eye(2)[None] * sigma * sigma, 5.0)  # white far around
    fixed = blurred_templates(DICT)[0][k * 200:(k + 1) * 200]
    assert (_draw(per_cell[0], base[0]) * fixed).sum(axis=1).min() > 0.9999


def test_rectangle_chances_agree_with_sampling():
    rng = np.random.default_rng(3)
    cov = np.array([[0.5, 0.3], [0.3, 0.4]])
    e = rng.multivariate_normal([0, 0], cov, 400_000)
    lo = np.array([[-0.3, -0.8], [0.1, 0.2], [-5.0, -5.0]])
    hi = np.array([[0.7, 0.2], [1.1, 1.2], [5.0, 5.0]])
    got = F.rect_chance(lo, hi, cov)
    want = [np.mean((e[:, 0] >= l[0]) & (e[:, 0] <= h[0]) & (e[:, 1] >= l[1]) & (e[:, 1] <= h[1])) for l, h in zip(lo, hi)]
    assert np.abs(got - want).max() < 0.004
    assert abs(got[2] - 1.0) < 1e-4  # the quadrature over ten deviations


def test_patches_alike_share_their_templates_and_others_do_not():
    J = np.array([[0.2, 0.05], [0.01, 0.12]])
    a = F.patch_templates(J, 6.0, 1.0, DICT)
    assert F.patch_templates(J * 1.01, 6.0, 1.0, DICT)[0] is a[0]  # within the cache's step
    assert F.patch_templates(J * 1.3, 6.0, 1.0, DICT)[0] is not a[0]
    T, ids, rots, ranges = a
    assert T.shape == (len(F.BLUR_PX) * 200, 36) and ids.shape == rots.shape == ranges.shape == (len(T),)
    assert np.allclose(np.linalg.norm(T, axis=1), 1.0, atol=1e-5)


def _oblique_patch(marker: int, squeeze: float, turn_deg: float, blur_px: float, side_px: float, seed: int):
    """A 9 mm marker on a 12 mm cap, ``side_px`` frame pixels across and squeezed ``squeeze``
    along a direction ``turn_deg`` from its edges (a steep camera), rendered 8 times finer and
    area-reduced (the pixels' footprint), blurred and noised, then rectified back into a patch of
    6 px a cell: the patch (P, P), the Jacobian d(frame)/d(patch) and the marker's centre there."""
    cell_px = 6.0
    tex = cap_texture(DICT, marker, 9.0, 12.0, 20.0).astype(np.float32)  # 240 x 240, the marker 180
    a = np.radians(turn_deg)
    R = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    # patch px -> frame px: a marker side of 36 patch px becomes side_px, squeezed one way
    J = R @ np.diag([1.0, squeeze]) @ R.T * (side_px / (6 * cell_px))
    size = 69
    c_patch = np.array([(size - 1) / 2, (size - 1) / 2])
    c_frame = np.array([20.0, 20.0])
    fine = 8
    # texture px -> frame px (fine): the texture's 180 px marker is 36 patch px
    to_patch = np.array([[36 / 180, 0, c_patch[0] - 36 / 180 * 119.5], [0, 36 / 180, c_patch[1] - 36 / 180 * 119.5]])
    A = J @ to_patch[:, :2]
    t = J @ (to_patch[:, 2] - c_patch) + c_frame
    M = np.hstack([A, t[:, None]]) * fine
    M[:, 2] += (fine - 1) / 2  # pixel centres of the fine grid
    big = cv2.warpAffine(tex, M, (40 * fine, 40 * fine), flags=cv2.INTER_LINEAR, borderValue=90.0)
    frame = cv2.resize(big, (40, 40), interpolation=cv2.INTER_AREA)
    frame = cv2.GaussianBlur(frame, (0, 0), blur_px)
    frame += np.random.default_rng(seed).normal(0, 2.0, frame.shape).astype(np.float32)
    frame = np.clip(frame, 0, 255).astype(np.uint8)
    back = np.hstack([J, (c_frame - J @ c_patch)[:, None]])  # patch px -> frame px
    patch = cv2.warpAffine(frame, back, (size, size), flags=cv2.INTER_CUBIC | cv2.WARP_INVERSE_MAP,
                           borderMode=cv2.BORDER_REPLICATE)
    return patch, J, c_patch


@pytest.mark.parametrize("seed", range(4))
def test_a_small_oblique_marker_fits_its_own_templates_better_than_the_fixed_ones(seed):
    rng = np.random.default_rng(seed)
    marker = int(rng.integers(32))
    patch, J, mid = _oblique_patch(marker, squeeze=float(rng.uniform(0.4, 0.5)), turn_deg=float(rng.uniform(20, 70)),
                                   blur_px=float(rng.uniform(0.6, 0.9)), side_px=float(rng.uniform(11, 13)), seed=seed)
    obs = _cells(patch, mid[None, None], np.zeros((1, 1)), 36.0)[0]
    obs = (obs - obs.mean()) / np.linalg.norm(obs - obs.mean())
    fits = {}
    for name, (T, ids, _, _) in {"own": F.patch_templates(J, 6.0, 1.0, DICT), "fixed": blurred_templates(DICT)}.items():
        corr = np.asarray(T, np.float64) @ obs
        per_id = np.array([corr[ids == i].max() for i in range(50)])
        order = np.argsort(-per_id)
        fits[name] = (int(order[0]), per_id[order[0]], per_id[order[1]])
    own, fixed = fits["own"], fits["fixed"]
    assert own[0] == marker
    assert own[1] > 0.98 and own[1] > fixed[1] + 0.03  # the true id fits better drawn as this camera draws it
    assert (1 - own[2] ** 2) >= 3.0 * (1 - own[1] ** 2)  # and stands out from the others
    assert (1 - own[2] ** 2) / (1 - own[1] ** 2) > (1 - fixed[2] ** 2) / (1 - fixed[1] ** 2)
