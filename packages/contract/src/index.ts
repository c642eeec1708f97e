export * from './constants';
export * from './errors';
export * from './files';
export * from './items';
export * from './languages';
export * from './permissions';
export * from './security';
export * from './uploads';
