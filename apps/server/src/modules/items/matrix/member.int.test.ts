import { itemEndpointMatrix } from '../../../testing/item-matrix.ts';

itemEndpointMatrix('member');
