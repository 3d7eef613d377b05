import { Schema } from 'mongoose';
import { indexPlanFor } from './index-coverage';

const schema = new Schema({ user_id: String, updated: Date, id: Number, status: String, terms: [String] });
schema.index({ user_id: 1, updated: -1, id: -1 });
schema.index({ terms: 1 });

describe('the index planner rules', () => {
  it('finds the index for equality then sort, in either direction, with extra filters and a range', () => {
    expect(indexPlanFor(schema, { user_id: 'u' }, { updated: -1, id: -1 })?.index).toEqual({ user_id: 1, updated: -1, id: -1 });
    expect(indexPlanFor(schema, { user_id: 'u' }, { updated: 1, id: 1 })).toBeDefined();
    expect(indexPlanFor(schema, { user_id: 'u', status: 'read', updated: { $gte: new Date(0) } }, { updated: -1, id: -1 })).toBeDefined();
    expect(indexPlanFor(schema, { terms: { $all: ['a', 'b'] } })).toBeDefined();
    expect(indexPlanFor(schema, { _id: 'x', status: 'read' })).toBeDefined();
  });

  it('reports a collection scan or an in-memory sort', () => {
    expect(indexPlanFor(schema, { status: 'read' })).toBeUndefined();
    expect(indexPlanFor(schema, { user_id: 'u' }, { id: -1 })).toBeUndefined();
    expect(indexPlanFor(schema, { user_id: 'u' }, { updated: -1, id: 1 })).toBeUndefined();
    expect(indexPlanFor(schema, { updated: { $gte: new Date(0) } })).toBeUndefined();
  });
});
