export * from './route';
export * from './schemas/error';
export * from './schemas/health';
export * from './schemas/auth';
export * from './schemas/project';
