import {
  checkAreaCompleteness,
  checkCompose,
  checkDockerfile,
  checkEnvironment,
  checkGatewayHeapBound,
  checkImagePorts,
  checkNatsPayload,
  checkNoSecrets,
  checkSecretsDocumented,
  checkWorkloads,
  ComposeModel,
  composeProbes,
  deploymentProbes,
  dockerfileEnv,
  durationMs,
  natsMaxPayload,
  referencedSecrets,
} from './checks';
import { parseManifests, K8sObject } from './manifests';
import { schemaFileName } from './installers';
import { standaloneSchema } from './schemas';

const labels = (name: string) => ({ 'app.kubernetes.io/name': name, 'app.kubernetes.io/part-of': 'plaza' });
const hardened = { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } };
const resources = { requests: { cpu: '100m', memory: '128Mi' }, limits: { cpu: '1', memory: '256Mi' } };

function deployment(name: string, port = 8081, overrides: Partial<K8sObject['spec']> = {}): K8sObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, labels: labels(name) },
    spec: {
      selector: { matchLabels: labels(name) },
      template: {
        metadata: { labels: { ...labels(name), 'app.kubernetes.io/component': 'service' } },
        spec: {
          terminationGracePeriodSeconds: 30,
          securityContext: { runAsNonRoot: true, runAsUser: 65532 },
          containers: [
            {
              name,
              image: `plaza/${name}`,
              ports: [{ name: 'health', containerPort: port }],
              envFrom: [{ configMapRef: { name: 'plaza-common' } }, { configMapRef: { name: `${name}-config` } }],
              env: [{ name: 'MONGO_URL', valueFrom: { secretKeyRef: { name: `${name}-db`, key: 'url' } } }],
              readinessProbe: { httpGet: { path: '/ready', port: 'health' } },
              livenessProbe: { httpGet: { path: '/health', port: 'health' } },
              startupProbe: { httpGet: { path: '/health', port: port } },
              resources,
              securityContext: hardened,
            },
          ],
        },
      },
      ...overrides,
    },
  };
}

/** The pod spec of a fixture (always present). */
function pod(d: K8sObject) {
  const spec = d.spec?.template?.spec;
  if (!spec) throw new Error('fixture without a pod template');
  return spec;
}

function area(name: string): K8sObject[] {
  const meta = (kind: string, apiVersion: string, spec: K8sObject['spec']): K8sObject => ({ apiVersion, kind, metadata: { name, labels: labels(name) }, spec });
  return [
    deployment(name),
    { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `${name}-config`, labels: labels(name) }, data: {} },
    meta('Service', 'v1', { selector: labels(name) as never, ports: [{ name: 'health', port: 8081 }] }),
    meta('HorizontalPodAutoscaler', 'autoscaling/v2', { scaleTargetRef: { kind: 'Deployment', name }, minReplicas: 2, maxReplicas: 4 }),
    meta('PodDisruptionBudget', 'policy/v1', { maxUnavailable: 1, selector: { matchLabels: labels(name) } }),
    meta('NetworkPolicy', 'networking.k8s.io/v1', { podSelector: { matchLabels: labels(name) }, policyTypes: ['Ingress', 'Egress'] }),
  ];
}

describe('workload rules', () => {
  it('accepts a hardened, probed deployment', () => {
    expect(checkWorkloads([deployment('book')])).toEqual([]);
  });

  it('reports a missing probe, a probe on an undeclared port, and a grace period too short', () => {
    const d = deployment('book');
    const c = pod(d).containers[0];
    delete c.livenessProbe;
    c.readinessProbe = { httpGet: { path: '/ready', port: 'http' } };
    c.lifecycle = { preStop: { sleep: { seconds: 5 } } };
    pod(d).terminationGracePeriodSeconds = 12;
    const problems = checkWorkloads([d]);
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringContaining('needs an httpGet livenessProbe'),
        expect.stringContaining('readinessProbe port http is not a port'),
        expect.stringContaining('terminationGracePeriodSeconds (12) must exceed preStop (5) + SHUTDOWN_GRACE_MS (10)'),
      ]),
    );
  });

  it('reports root, writable and capable containers, and missing resources', () => {
    const d = deployment('book');
    pod(d).securityContext = {};
    pod(d).containers[0].securityContext = {};
    delete pod(d).containers[0].resources;
    const problems = checkWorkloads([d]).join('\n');
    expect(problems).toContain('runAsNonRoot');
    expect(problems).toContain('allowPrivilegeEscalation');
    expect(problems).toContain('readOnlyRootFilesystem');
    expect(problems).toContain('drop must include ALL');
    expect(problems).toContain('requests');
  });

  it('reports a selector that does not select the pods', () => {
    const d = deployment('book', 8081, { selector: { matchLabels: { 'app.kubernetes.io/name': 'movie' } } });
    expect(checkWorkloads([d])).toEqual([expect.stringContaining('selector.matchLabels')]);
  });
});

describe('area completeness', () => {
  it('accepts an area with its HPA, PDB, Service, NetworkPolicy and ConfigMap', () => {
    expect(checkAreaCompleteness(area('book'))).toEqual([]);
  });

  it('reports what is missing, and replicas beside an HPA', () => {
    const objects = area('book').filter((o) => o.kind !== 'PodDisruptionBudget' && o.kind !== 'NetworkPolicy' && o.kind !== 'ConfigMap');
    objects[0].spec = { ...objects[0].spec, replicas: 2 };
    const problems = checkAreaCompleteness(objects).join('\n');
    expect(problems).toContain('no PodDisruptionBudget');
    expect(problems).toContain('no NetworkPolicy');
    expect(problems).toContain('reads ConfigMap book-config');
    expect(problems).toContain('sets replicas');
  });
});

describe('environment rules', () => {
  it('wants default-deny, plaza-common, every app, the engines and a TLS ingress to the gateway only', () => {
    const problems = checkEnvironment([
      { apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', metadata: { name: 'x' }, spec: { rules: [{ http: { paths: [{ backend: { service: { name: 'book' } } }] } }] } },
      { apiVersion: 'v1', kind: 'Service', metadata: { name: 'db' }, spec: { type: 'NodePort' } as never },
    ]).join('\n');
    for (const text of ['plaza-common', 'default-deny', 'no Deployment gateway', 'no StatefulSet nats', 'needs tls', 'only the gateway', 'NodePort']) {
      expect(problems).toContain(text);
    }
  });

  it('finds no Secret objects and lists the Secrets referenced', () => {
    const objects = [...area('book'), { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, data: { a: 'YQ==' } }];
    expect(checkNoSecrets(objects)).toEqual([expect.stringContaining('Secret/s')]);
    expect(referencedSecrets(objects)).toEqual(['book-db']);
  });

  it('wants a kubectl create secret line per Secret', () => {
    expect(checkSecretsDocumented(['book-db', 'plaza-tls'], 'kubectl -n $NS create secret generic book-db --from-literal=url=...')).toEqual([
      expect.stringContaining('plaza-tls'),
    ]);
  });
});

describe("the gateway's heap bound", () => {
  const withOptions = (nodeOptions?: string) => area('gateway').map((o) => (o.kind === 'ConfigMap' && nodeOptions !== undefined ? { ...o, data: { NODE_OPTIONS: nodeOptions } } : o));

  it('is read from a ConfigMap the gateway reads, with other options beside it', () => {
    expect(checkGatewayHeapBound(withOptions('--enable-source-maps --max-old-space-size=256'))).toEqual([]);
  });

  it('is missing when no NODE_OPTIONS carries it, or carries another size', () => {
    expect(checkGatewayHeapBound(withOptions())).toEqual([expect.stringContaining('lacks --max-old-space-size=256 in NODE_OPTIONS')]);
    expect(checkGatewayHeapBound(withOptions('--max-old-space-size=2048'))).toHaveLength(1);
  });

  it("is the compose gateway's too", () => {
    const gateway = { ports: [{ target: 8080 }] };
    expect(checkCompose({ services: { gateway } }).join('\n')).toContain('the gateway lacks --max-old-space-size=256 in NODE_OPTIONS');
    expect(checkCompose({ services: { gateway: { ...gateway, environment: { NODE_OPTIONS: '--max-old-space-size=256' } } } }).join('\n')).not.toContain('NODE_OPTIONS');
  });
});

describe('probes', () => {
  it('resolves named and numbered ports', () => {
    expect(deploymentProbes([deployment('note', 9000)])).toEqual([
      { app: 'note', kind: 'readiness', path: '/ready', port: 9000 },
      { app: 'note', kind: 'liveness', path: '/health', port: 9000 },
      { app: 'note', kind: 'startup', path: '/health', port: 9000 },
    ]);
  });

  it('reads the compose health check path and port', () => {
    const model: ComposeModel = {
      services: {
        gateway: { environment: { PORT: '8080' }, healthcheck: { test: ['CMD', '/nodejs/bin/node', '/app/deploy/docker/healthcheck.js', '/ready'] } },
        book: { environment: { HEALTH_PORT: '8081' }, healthcheck: { test: ['CMD', '/nodejs/bin/node', '/app/deploy/docker/healthcheck.js'] } },
      },
    };
    expect(composeProbes(model)).toEqual([
      { app: 'gateway', kind: 'compose healthcheck', path: '/ready', port: 8080 },
      { app: 'book', kind: 'compose healthcheck', path: '/health', port: 8081 },
    ]);
  });

  it('compares the image ports with the probed ports', () => {
    const env = { PORT: '8080', HEALTH_PORT: '8081', HOST: '0.0.0.0', HEALTH_HOST: '0.0.0.0', ADMIN_HOST: '0.0.0.0' };
    expect(checkImagePorts(env, [{ app: 'gateway', kind: 'readiness', path: '/ready', port: 8080 }])).toEqual([]);
    expect(checkImagePorts(env, [{ app: 'book', kind: 'readiness', path: '/ready', port: 9090 }])).toEqual([expect.stringContaining('HEALTH_PORT')]);
  });
});

describe('compose rules', () => {
  it('reports a compose file without engines, gating or hardening', () => {
    const problems = checkCompose({ services: { gateway: { ports: [{ target: 8080 }] }, book: { ports: [{ target: 8081 }] } } }).join('\n');
    for (const text of ['no mongo service', 'no nats service', 'book must build', 'book needs a healthcheck', 'book must wait for mongo', 'book publishes a port', 'no seed service']) {
      expect(problems).toContain(text);
    }
  });

  it('parses compose durations', () => {
    expect(durationMs('15s')).toBe(15_000);
    expect(durationMs('1m30s')).toBe(90_000);
    expect(durationMs(undefined)).toBe(10_000);
  });
});

describe('Dockerfile rules', () => {
  const good = [
    'FROM node:20 AS build',
    'RUN npm ci',
    'ARG APP',
    'RUN npx tsc -b "apps/$APP/tsconfig.app.json" && npm prune --omit=dev',
    'FROM gcr.io/distroless/nodejs20-debian12:nonroot',
    'ENV APP=${APP} \\',
    '    PORT=8080 \\',
    '    HEALTH_PORT=8081',
    'USER 65532:65532',
    'HEALTHCHECK CMD ["/nodejs/bin/node", "healthcheck.js"]',
    'CMD ["--enable-source-maps", "--no-allocation-site-pretenuring", "/app/main.js"]',
  ].join('\n');

  it('accepts a multi-stage, non-root build with the CI commands', () => {
    expect(checkDockerfile(good)).toEqual([]);
    expect(dockerfileEnv(good)).toEqual({ APP: '${APP}', PORT: '8080', HEALTH_PORT: '8081' });
  });

  it('reports root, a single stage and missing steps', () => {
    const problems = checkDockerfile('FROM node:20\nRUN npm install\nUSER root\n').join('\n');
    for (const text of ['multi-stage', 'npm ci', 'npx tsc -b', 'npm prune', 'HEALTHCHECK', 'non-root USER', '--no-allocation-site-pretenuring']) expect(problems).toContain(text);
  });

  it('reports a CMD without the V8 flag the stack runs every app with', () => {
    expect(checkDockerfile(good.replace('"--no-allocation-site-pretenuring", ', ''))).toEqual(['Dockerfile: missing --no-allocation-site-pretenuring in CMD']);
  });
});

describe('schemas', () => {
  it('names schema files as kubeconform looks them up', () => {
    expect(schemaFileName('apps/v1', 'Deployment')).toBe('deployment-apps-v1.json');
    expect(schemaFileName('v1', 'ConfigMap')).toBe('configmap-v1.json');
    expect(schemaFileName('networking.k8s.io/v1', 'NetworkPolicy')).toBe('networkpolicy-networking-v1.json');
  });

  it('makes a schema self-contained with only the definitions it reaches', () => {
    const definitions = {
      A: { properties: { b: { $ref: '#/$defs/B' } } },
      B: { type: 'string' },
      Unused: { type: 'number' },
    };
    const schema = standaloneSchema({ properties: { a: { $ref: '/api/_definitions.json#/$defs/A' } } }, definitions);
    expect(schema).toEqual({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      properties: { a: { $ref: '#/$defs/A' } },
      $defs: { A: { properties: { b: { $ref: '#/$defs/B' } } }, B: { type: 'string' } },
    });
  });

  it('parses multi-document YAML, skipping empty documents', () => {
    expect(parseManifests('---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n---\n---\n').map((o) => o.metadata.name)).toEqual(['a']);
  });
});

describe('checkNatsPayload', () => {
  it('reads max_payload in the units nats-server takes, and its 1 MiB default', () => {
    expect(natsMaxPayload('max_payload: 8MB')).toBe(8 * 1024 * 1024);
    expect(natsMaxPayload('port: 4222\nmax_payload = 512KB\n')).toBe(512 * 1024);
    expect(natsMaxPayload('max_payload: 2097152')).toBe(2097152);
    expect(natsMaxPayload('port: 4222')).toBe(1024 * 1024);
  });

  it('reports a deployment whose NATS carries less than the services send', () => {
    expect(checkNatsPayload({ 'compose.conf': 'max_payload: 8MB', 'k8s.conf': 'port: 4222' }, 8 * 1024 * 1024)).toEqual([
      'k8s.conf: max_payload is 1048576 bytes; answers may take 8388608',
    ]);
  });
});
