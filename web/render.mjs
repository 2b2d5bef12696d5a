// The playground's renderer: WebGL2, one draw per flock with one point per boid: the vertex
// shader projects the boid and a step along its velocity, and the fragment shader draws a dart
// pointing that way inside the point's square, shaded darker with distance. (Instanced meshes
// were the first version: SwiftShader, the software GL of headless and GPU-less browsers, sets
// up every instance on its own, and 10,000 darts took 300 ms a frame there; points take one
// vertex a boid everywhere.) The bounds as lines, spherical obstacles as shaded discs.
// Positions and velocities go to the GPU straight from the engine's read views.

// ---- 4x4 matrices, column-major (as WebGL takes them). ----

export function multiply(a, b) {
  const o = new Float32Array(16);
  for (let c = 0; c < 4; c++) {
    for (let r = 0; r < 4; r++) {
      let s = 0;
      for (let k = 0; k < 4; k++) s += a[k * 4 + r] * b[c * 4 + k];
      o[c * 4 + r] = s;
    }
  }
  return o;
}

export function invert(m) {
  const inv = new Float32Array(16);
  const [a00, a01, a02, a03, a10, a11, a12, a13, a20, a21, a22, a23, a30, a31, a32, a33] = m;
  const b00 = a00 * a11 - a01 * a10, b01 = a00 * a12 - a02 * a10, b02 = a00 * a13 - a03 * a10;
  const b03 = a01 * a12 - a02 * a11, b04 = a01 * a13 - a03 * a11, b05 = a02 * a13 - a03 * a12;
  const b06 = a20 * a31 - a21 * a30, b07 = a20 * a32 - a22 * a30, b08 = a20 * a33 - a23 * a30;
  const b09 = a21 * a32 - a22 * a31, b10 = a21 * a33 - a23 * a31, b11 = a22 * a33 - a23 * a32;
  const det = b00 * b11 - b01 * b10 + b02 * b09 + b03 * b08 - b04 * b07 + b05 * b06;
  if (!det) return null;
  const d = 1 / det;
  inv[0] = (a11 * b11 - a12 * b10 + a13 * b09) * d;
  inv[1] = (a02 * b10 - a01 * b11 - a03 * b09) * d;
  inv[2] = (a31 * b05 - a32 * b04 + a33 * b03) * d;
  inv[3] = (a22 * b04 - a21 * b05 - a23 * b03) * d;
  inv[4] = (a12 * b08 - a10 * b11 - a13 * b07) * d;
  inv[5] = (a00 * b11 - a02 * b08 + a03 * b07) * d;
  inv[6] = (a32 * b02 - a30 * b05 - a33 * b01) * d;
  inv[7] = (a20 * b05 - a22 * b02 + a23 * b01) * d;
  inv[8] = (a10 * b10 - a11 * b08 + a13 * b06) * d;
  inv[9] = (a01 * b08 - a00 * b10 - a03 * b06) * d;
  inv[10] = (a30 * b04 - a31 * b02 + a33 * b00) * d;
  inv[11] = (a21 * b02 - a20 * b04 - a23 * b00) * d;
  inv[12] = (a11 * b07 - a10 * b09 - a12 * b06) * d;
  inv[13] = (a00 * b09 - a01 * b07 + a02 * b06) * d;
  inv[14] = (a31 * b01 - a30 * b03 - a32 * b00) * d;
  inv[15] = (a20 * b03 - a21 * b01 + a22 * b00) * d;
  return inv;
}

function lookAt(eye, at, up) {
  const sub = (a, b) => a.map((v, k) => v - b[k]);
  const norm = (a) => { const l = Math.hypot(...a) || 1; return a.map((v) => v / l); };
  const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
  const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
  const z = norm(sub(eye, at));
  const x = norm(cross(up, z));
  const y = cross(z, x);
  const m = new Float32Array([x[0], y[0], z[0], 0, x[1], y[1], z[1], 0, x[2], y[2], z[2], 0,
    -dot(x, eye), -dot(y, eye), -dot(z, eye), 1]);
  m.right = x;
  m.up = y;
  return m;
}

function perspective(fovy, aspect, near, far) {
  const f = 1 / Math.tan(fovy / 2);
  const nf = 1 / (near - far);
  return new Float32Array([f / aspect, 0, 0, 0, 0, f, 0, 0, 0, 0, (far + near) * nf, -1, 0, 0, 2 * far * near * nf, 0]);
}

function ortho(l, r, b, t, n, f) {
  return new Float32Array([2 / (r - l), 0, 0, 0, 0, 2 / (t - b), 0, 0, 0, 0, -2 / (f - n), 0,
    -(r + l) / (r - l), -(t + b) / (t - b), -(f + n) / (f - n), 1]);
}

/**
 * The camera for the view: `top` looks down on the flock (a flock in the XY plane face on),
 * `perspective` orbits the box's centre at `yaw` / `pitch`. Returns the view-projection matrix,
 * the eye, and the plane the pointer's clicks land on (a point and a normal).
 */
export function camera(view, extent, width, height, yaw, pitch, planeXY) {
  const c = extent.min.map((v, k) => (v + extent.max[k]) / 2);
  const size = Math.max(...extent.max.map((v, k) => v - extent.min[k]), 1e-3);
  const aspect = width / Math.max(height, 1);
  const plane = { point: c, normal: planeXY ? [0, 0, 1] : [0, 1, 0] };
  let eye;
  let view_;
  let proj;
  let fog;
  if (view === 'perspective') {
    const dist = (size * 2.2) / Math.min(Math.max(aspect, 0.45), 1);
    eye = [c[0] + dist * Math.cos(pitch) * Math.sin(yaw), c[1] + dist * Math.sin(pitch), c[2] + dist * Math.cos(pitch) * Math.cos(yaw)];
    view_ = lookAt(eye, c, [0, 1, 0]);
    proj = perspective(0.9, aspect, size * 0.05, size * 6);
    fog = [dist - size * 0.7, dist + size * 0.9];
  } else {
    const half = size * 0.54;
    const [hw, hh] = aspect >= 1 ? [half * aspect, half] : [half, half / aspect];
    // A flat flock in the XY plane face on; everything else from above (x right, z down).
    eye = planeXY ? [c[0], c[1], c[2] + size * 2] : [c[0], c[1] + size * 2, c[2]];
    view_ = lookAt(eye, c, planeXY ? [0, 1, 0] : [0, 0, -1]);
    proj = ortho(-hw, hw, -hh, hh, 0.01, size * 4);
    fog = [size * 1.5, size * 2.5];
  }
  // Pixels per world unit at clip w = 1 (proj[5] is the vertical scale of either projection).
  const pxPerUnit = (proj[5] * height) / 2;
  return { vp: multiply(proj, view_), eye, right: view_.right, up: view_.up, plane, fog, pxPerUnit };
}

/** Where a pointer at canvas pixel (x, y) lands on the camera's click plane, or null. */
export function unproject(cam, x, y, width, height) {
  const inv = invert(cam.vp);
  if (!inv) return null;
  const ndc = [(2 * x) / width - 1, 1 - (2 * y) / height];
  const at = (z) => {
    const v = [ndc[0], ndc[1], z, 1];
    const o = [0, 0, 0, 0];
    for (let r = 0; r < 4; r++) for (let k = 0; k < 4; k++) o[r] += inv[k * 4 + r] * v[k];
    return o.slice(0, 3).map((q) => q / o[3]);
  };
  const a = at(-1);
  const b = at(1);
  const d = b.map((v, k) => v - a[k]);
  const { point, normal } = cam.plane;
  const den = d[0] * normal[0] + d[1] * normal[1] + d[2] * normal[2];
  if (Math.abs(den) < 1e-9) return null;
  const t = ((point[0] - a[0]) * normal[0] + (point[1] - a[1]) * normal[1] + (point[2] - a[2]) * normal[2]) / den;
  return a.map((v, k) => v + d[k] * t);
}

// ---- WebGL2 ----

const BOID_VS = `#version 300 es
in vec3 aPos;
in vec3 aVel;
uniform mat4 uViewProj;
uniform vec3 uEye;
uniform vec2 uFog;
uniform float uSize;
uniform float uPxPerUnit;
uniform vec2 uViewport;
out float vShade;
out vec2 vDir;
void main() {
  vec4 c = uViewProj * vec4(aPos, 1.0);
  float speed = length(aVel);
  vec3 fwd = speed > 1e-6 ? aVel / speed : vec3(1.0, 0.0, 0.0);
  vec4 t = uViewProj * vec4(aPos + fwd * uSize, 1.0);
  vec2 d = (t.xy / t.w - c.xy / c.w) * uViewport * 0.5;
  float len = length(d);
  vDir = len > 1e-4 ? d / len : vec2(1.0, 0.0);
  gl_Position = c;
  gl_PointSize = clamp(2.4 * uSize * uPxPerUnit / max(c.w, 1e-4), 3.0, 64.0);
  float fog = clamp((distance(uEye, aPos) - uFog.x) / max(uFog.y - uFog.x, 1e-3), 0.0, 1.0);
  vShade = 1.0 - 0.65 * fog;
}`;

const BOID_FS = `#version 300 es
precision mediump float;
in float vShade;
in vec2 vDir;
uniform vec3 uColour;
out vec4 outColour;
void main() {
  // gl_PointCoord runs down the screen; the direction up it.
  vec2 p = vec2(gl_PointCoord.x * 2.0 - 1.0, 1.0 - gl_PointCoord.y * 2.0);
  float along = dot(p, vDir);
  float across = abs(dot(p, vec2(-vDir.y, vDir.x)));
  // A dart: nose at along = 0.95, tail at -0.7, widest (0.42) at the tail.
  if (along < -0.7 || along > 0.95 || across > 0.42 * (0.95 - along) / 1.65) discard;
  float edge = across / max(0.42 * (0.95 - along) / 1.65, 1e-3);
  outColour = vec4(uColour * vShade * (1.0 - 0.25 * edge), 1.0);
}`;

const LINE_VS = `#version 300 es
in vec3 aPos;
uniform mat4 uViewProj;
void main() { gl_Position = uViewProj * vec4(aPos, 1.0); }`;

const LINE_FS = `#version 300 es
precision mediump float;
uniform vec3 uColour;
out vec4 outColour;
void main() { outColour = vec4(uColour, 1.0); }`;

// A disc facing the camera per obstacle: corner offsets in the camera's right / up.
const DISC_VS = `#version 300 es
in vec2 aCorner;
in vec4 iSphere;
uniform mat4 uViewProj;
uniform vec3 uRight;
uniform vec3 uUpv;
out vec2 vCorner;
void main() {
  vCorner = aCorner;
  vec3 world = iSphere.xyz + (uRight * aCorner.x + uUpv * aCorner.y) * iSphere.w;
  gl_Position = uViewProj * vec4(world, 1.0);
}`;

const DISC_FS = `#version 300 es
precision mediump float;
in vec2 vCorner;
out vec4 outColour;
void main() {
  float r2 = dot(vCorner, vCorner);
  if (r2 > 1.0) discard;
  float z = sqrt(1.0 - r2);
  float light = 0.35 + 0.65 * max(dot(normalize(vec3(vCorner, z)), normalize(vec3(-0.4, 0.5, 0.8))), 0.0);
  outColour = vec4(vec3(0.36, 0.42, 0.5) * light, 1.0);
}`;

// The scene's faces (rocks, seabeds, boxes): flat-shaded, lit from above on either side, fogged
// like the boids.
const SCENE_VS = `#version 300 es
in vec3 aPos;
in vec3 aNormal;
uniform mat4 uViewProj;
uniform vec3 uEye;
uniform vec2 uFog;
out float vLight;
void main() {
  gl_Position = uViewProj * vec4(aPos, 1.0);
  float fog = clamp((distance(uEye, aPos) - uFog.x) / max(uFog.y - uFog.x, 1e-3), 0.0, 1.0);
  vLight = (0.35 + 0.65 * abs(dot(aNormal, normalize(vec3(0.3, 1.0, 0.45))))) * (1.0 - 0.6 * fog);
}`;

const SCENE_FS = `#version 300 es
precision mediump float;
in float vLight;
out vec4 outColour;
void main() { outColour = vec4(vec3(0.55, 0.47, 0.36) * vLight, 1.0); }`;

/** Per-point unit normals of `points` (x, y, z, three points a triangle): each triangle's own. */
export function faceNormals(points) {
  const n = new Float32Array(points.length);
  for (let i = 0; i + 8 < points.length; i += 9) {
    const e1 = [points[i + 3] - points[i], points[i + 4] - points[i + 1], points[i + 5] - points[i + 2]];
    const e2 = [points[i + 6] - points[i], points[i + 7] - points[i + 1], points[i + 8] - points[i + 2]];
    const c = [e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]];
    const len = Math.hypot(c[0], c[1], c[2]) || 1;
    for (let k = 0; k < 9; k++) n[i + k] = c[k % 3] / len;
  }
  return n;
}

function program(gl, vs, fs) {
  const make = (type, src) => {
    const s = gl.createShader(type);
    gl.shaderSource(s, src);
    gl.compileShader(s);
    if (!gl.getShaderParameter(s, gl.COMPILE_STATUS)) throw new Error(`shader: ${gl.getShaderInfoLog(s)}`);
    return s;
  };
  const p = gl.createProgram();
  gl.attachShader(p, make(gl.VERTEX_SHADER, vs));
  gl.attachShader(p, make(gl.FRAGMENT_SHADER, fs));
  gl.linkProgram(p);
  if (!gl.getProgramParameter(p, gl.LINK_STATUS)) throw new Error(`program: ${gl.getProgramInfoLog(p)}`);
  const u = {};
  for (let i = 0; i < gl.getProgramParameter(p, gl.ACTIVE_UNIFORMS); i++) {
    const name = gl.getActiveUniform(p, i).name;
    u[name] = gl.getUniformLocation(p, name);
  }
  return { p, u, attrib: (name) => gl.getAttribLocation(p, name) };
}

/** A WebGL2 renderer on `canvas`, or null where WebGL2 is not available. */
export function createRenderer(canvas) {
  const gl = canvas.getContext('webgl2', { antialias: false, preserveDrawingBuffer: false });
  if (!gl) return null;
  const boid = program(gl, BOID_VS, BOID_FS);
  const line = program(gl, LINE_VS, LINE_FS);
  const disc = program(gl, DISC_VS, DISC_FS);
  const scene = program(gl, SCENE_VS, SCENE_FS);

  const cornerBuf = gl.createBuffer();
  gl.bindBuffer(gl.ARRAY_BUFFER, cornerBuf);
  gl.bufferData(gl.ARRAY_BUFFER, new Float32Array([-1, -1, 1, -1, 1, 1, -1, -1, 1, 1, -1, 1]), gl.STATIC_DRAW);
  const posBuf = gl.createBuffer();
  const velBuf = gl.createBuffer();
  const lineBuf = gl.createBuffer();
  const sphereBuf = gl.createBuffer();
  const scenePosBuf = gl.createBuffer();
  const sceneNormalBuf = gl.createBuffer();
  let scenePoints = 0;

  const boidVao = gl.createVertexArray();
  gl.bindVertexArray(boidVao);
  const attr = (buf, loc, size, divisor) => {
    if (loc < 0) return;
    gl.bindBuffer(gl.ARRAY_BUFFER, buf);
    gl.enableVertexAttribArray(loc);
    gl.vertexAttribPointer(loc, size, gl.FLOAT, false, 0, 0);
    gl.vertexAttribDivisor(loc, divisor);
  };
  attr(posBuf, boid.attrib('aPos'), 3, 0);
  attr(velBuf, boid.attrib('aVel'), 3, 0);
  const lineVao = gl.createVertexArray();
  gl.bindVertexArray(lineVao);
  attr(lineBuf, line.attrib('aPos'), 3, 0);
  const discVao = gl.createVertexArray();
  gl.bindVertexArray(discVao);
  attr(cornerBuf, disc.attrib('aCorner'), 2, 0);
  attr(sphereBuf, disc.attrib('iSphere'), 4, 1);
  const sceneVao = gl.createVertexArray();
  gl.bindVertexArray(sceneVao);
  attr(scenePosBuf, scene.attrib('aPos'), 3, 0);
  attr(sceneNormalBuf, scene.attrib('aNormal'), 3, 0);
  gl.bindVertexArray(null);

  return {
    kind: 'webgl2',
    /** The scene's faces, kept until the next call: x, y, z per point, three a triangle
     * (`World.sceneTriangles()`), and their `faceNormals`. */
    setScene(points, normals) {
      gl.bindBuffer(gl.ARRAY_BUFFER, scenePosBuf);
      gl.bufferData(gl.ARRAY_BUFFER, points, gl.STATIC_DRAW);
      gl.bindBuffer(gl.ARRAY_BUFFER, sceneNormalBuf);
      gl.bufferData(gl.ARRAY_BUFFER, normals, gl.STATIC_DRAW);
      scenePoints = points.length / 3;
    },
    /** One frame: `flocks` as `{ positions, velocities, colour: [r, g, b], size }`,
     * `box` 24 line ends (flat x, y, z), `spheres` (flat x, y, z, radius), and the scene's
     * faces (`setScene`) unless `noScene`. */
    draw(cam, flocks, box, spheres, noScene = false) {
      gl.viewport(0, 0, canvas.width, canvas.height);
      gl.clearColor(0.039, 0.059, 0.078, 1);
      gl.clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT);
      gl.enable(gl.DEPTH_TEST);
      gl.useProgram(line.p);
      gl.uniformMatrix4fv(line.u.uViewProj, false, cam.vp);
      gl.uniform3f(line.u.uColour, 0.13, 0.18, 0.24);
      gl.bindVertexArray(lineVao);
      gl.bindBuffer(gl.ARRAY_BUFFER, lineBuf);
      gl.bufferData(gl.ARRAY_BUFFER, box, gl.DYNAMIC_DRAW);
      gl.drawArrays(gl.LINES, 0, box.length / 3);
      if (scenePoints && !noScene) {
        gl.useProgram(scene.p);
        gl.uniformMatrix4fv(scene.u.uViewProj, false, cam.vp);
        gl.uniform3f(scene.u.uEye, cam.eye[0], cam.eye[1], cam.eye[2]);
        gl.uniform2f(scene.u.uFog, cam.fog[0], cam.fog[1]);
        gl.bindVertexArray(sceneVao);
        gl.drawArrays(gl.TRIANGLES, 0, scenePoints);
      }
      if (spheres.length) {
        const [r, u] = [cam.right, cam.up];
        gl.useProgram(disc.p);
        gl.uniformMatrix4fv(disc.u.uViewProj, false, cam.vp);
        gl.uniform3f(disc.u.uRight, r[0], r[1], r[2]);
        gl.uniform3f(disc.u.uUpv, u[0], u[1], u[2]);
        gl.bindVertexArray(discVao);
        gl.bindBuffer(gl.ARRAY_BUFFER, sphereBuf);
        gl.bufferData(gl.ARRAY_BUFFER, spheres, gl.DYNAMIC_DRAW);
        gl.drawArraysInstanced(gl.TRIANGLES, 0, 6, spheres.length / 4);
      }
      gl.useProgram(boid.p);
      gl.uniformMatrix4fv(boid.u.uViewProj, false, cam.vp);
      gl.uniform3f(boid.u.uEye, cam.eye[0], cam.eye[1], cam.eye[2]);
      gl.uniform2f(boid.u.uFog, cam.fog[0], cam.fog[1]);
      gl.uniform1f(boid.u.uPxPerUnit, cam.pxPerUnit);
      gl.uniform2f(boid.u.uViewport, canvas.width, canvas.height);
      gl.bindVertexArray(boidVao);
      for (const f of flocks) {
        const n = Math.min(f.positions.length, f.velocities.length) / 3;
        if (!n) continue;
        gl.bindBuffer(gl.ARRAY_BUFFER, posBuf);
        gl.bufferData(gl.ARRAY_BUFFER, f.positions, gl.STREAM_DRAW);
        gl.bindBuffer(gl.ARRAY_BUFFER, velBuf);
        gl.bufferData(gl.ARRAY_BUFFER, f.velocities, gl.STREAM_DRAW);
        gl.uniform3f(boid.u.uColour, f.colour[0], f.colour[1], f.colour[2]);
        gl.uniform1f(boid.u.uSize, f.size);
        gl.drawArrays(gl.POINTS, 0, n);
      }
      gl.bindVertexArray(null);
    },
  };
}
